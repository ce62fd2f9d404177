"""Build the one compiled part: the exact matching (C++ over vendored LEMON headers).

Everything else is in pyproject.toml. ``pip install -e .`` compiles it (g++ needed).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "swiss.pairing._blossom",
            sources=["swiss/pairing/_native/blossom.cpp"],
            depends=[
                "swiss/pairing/_native/warm_matching.h",
                "swiss/pairing/_native/dense_matching.h",
                "swiss/pairing/_native/cover_search.h",
            ],
            include_dirs=["swiss/pairing/_native"],
            language="c++",
            extra_compile_args=["-std=gnu++17", "-O3", "-Wno-unused-parameter", "-pthread"],
            extra_link_args=["-pthread"],
        )
    ]
)

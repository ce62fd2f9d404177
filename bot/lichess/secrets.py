"""Tokens are kept encrypted with a key from the environment (``SWISSBOT_SECRET_KEY``), so a
copy of the database (a backup, ``swissbot db copy``) does not hand out Lichess accounts."""

from __future__ import annotations

import base64
import hashlib

import cryptography.fernet
from cryptography.fernet import Fernet

from service.lichess import InvalidToken


class FernetCipher:
    """Fernet (AES-128-CBC + HMAC-SHA256) under a key derived from any secret text: the
    operator may set a passphrase rather than a 32-byte key."""

    def __init__(self, secret: str) -> None:
        if not secret.strip():
            raise ValueError("SWISSBOT_SECRET_KEY is empty")
        key = base64.urlsafe_b64encode(hashlib.sha256(secret.encode("utf-8")).digest())
        self._fernet = Fernet(key)

    def encrypt(self, token: str) -> str:
        return self._fernet.encrypt(token.encode("utf-8")).decode("ascii")

    def decrypt(self, ciphertext: str) -> str:
        try:
            return self._fernet.decrypt(ciphertext.encode("ascii")).decode("utf-8")
        except cryptography.fernet.InvalidToken:  # another key: the token is lost to us
            raise InvalidToken("the token was kept under another SWISSBOT_SECRET_KEY") from None

    def __repr__(self) -> str:  # never the key
        return "FernetCipher(<key>)"

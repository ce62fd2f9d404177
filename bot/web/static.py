"""The live page's script and stylesheet, served as fixed strings (the CSP allows only these).

The script adds nothing the page lacks without it: every few seconds it fetches the page's
own URL (the round picker's ``?round=N`` included), parses the server's HTML with
``DOMParser`` (which runs no script) and swaps the header and the main part in when they
changed, keeping the tables' sideways scroll. The stylesheet keeps a phone's page as wide as
its screen: wide tables scroll inside their own box.
"""

from __future__ import annotations

SCRIPT = r"""'use strict';
(function () {
  const poll = Number(document.body.dataset.poll || 5) * 1000;
  let last = '';

  function swap(id, fresh) {
    const old = document.getElementById(id);
    const next = fresh.getElementById(id);
    if (!old || !next) return;
    // a table scrolled sideways on a phone stays where its reader left it
    const scrolled = Array.from(old.querySelectorAll('.scroll'), el => el.scrollLeft);
    old.replaceChildren(...Array.from(next.childNodes));
    old.querySelectorAll('.scroll').forEach((el, i) => { el.scrollLeft = scrolled[i] || 0; });
  }
  async function refresh() {
    try {
      const response = await fetch(location.href, {cache: 'no-store'});
      if (response.ok) {
        const text = await response.text();
        if (text !== last) {
          const fresh = new DOMParser().parseFromString(text, 'text/html');
          swap('head', fresh);
          swap('live', fresh);
          document.title = fresh.title;
          last = text;
        }
      }
    } catch (e) { /* the bot restarts: try again at the next poll */ }
    setTimeout(refresh, poll);
  }
  setTimeout(refresh, poll);
})();
"""

STYLE = """
:root { color-scheme: light dark; --bg: #fafafc; --fg: #181a20; --muted: #5c6270;
        --stripe: #eceef4; --accent: #5865f2; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #1e1f24; --fg: #f2f3f5; --muted: #a3a9b7; --stripe: #2b2d34;
          --accent: #8c95f7; }
}
* { box-sizing: border-box; }
body { background: var(--bg); color: var(--fg); margin: 0 auto; max-width: 1100px;
       padding: 1rem; font: 15px/1.4 system-ui, sans-serif; overflow-wrap: anywhere; }
header { border-bottom: 3px solid var(--accent); margin-bottom: 1rem; }
h1 { margin: 0.2rem 0; font-size: 1.6rem; }
h2 { margin: 1.2rem 0 0.4rem; font-size: 1.2rem; }
h2 small { color: var(--muted); font-weight: normal; font-size: 0.9rem; }
#state, footer, .legend, .note { color: var(--muted); }
a { color: var(--accent); }
.scroll { overflow-x: auto; max-width: 100%; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 0.25rem 0.5rem; text-align: left; max-width: 22rem; overflow: hidden;
         text-overflow: ellipsis; white-space: nowrap; overflow-wrap: normal; }
th { color: var(--muted); font-weight: 600; }
tbody tr:nth-child(odd) { background: var(--stripe); }
tr.withdrawn, tr.pending { color: var(--muted); }
nav.rounds { display: flex; flex-wrap: wrap; gap: 0.3rem 0.6rem; margin: 0.2rem 0 0.5rem;
             align-items: baseline; }
nav.rounds a { padding: 0.15rem 0.5rem; border-radius: 0.3rem; text-decoration: none;
               border: 1px solid var(--stripe); }
nav.rounds a[aria-current] { background: var(--accent); color: #fff; }
@media (max-width: 600px) {
  body { padding: 0.6rem; font-size: 14px; }
  h1 { font-size: 1.3rem; }
  th, td { padding: 0.2rem 0.35rem; max-width: 14rem; }
}
"""

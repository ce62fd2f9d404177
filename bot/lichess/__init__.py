"""Lichess: the HTTP client the service calls (``client``), the OAuth redirect's web route
(``web``) and the encryption of the tokens kept (``secrets``)."""

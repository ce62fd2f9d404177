"""The optional live web page of each event (issue 16, item 5): :class:`bot.web.app.LiveServer`."""

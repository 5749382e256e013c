"""Cross-browser smoke set: the same tests in Chromium, Firefox and WebKit."""

"""`pipscover serve`: a local page to play Pips on, with the library's hints, checks and counts behind it.

`app` builds the web app (the page and its small JSON API), `play` answers the page's questions with the
library, `jobs` makes new puzzles in the background; the page itself (`static/`) is plain HTML, CSS and
JavaScript, shipped in the package and loaded from nowhere else.
"""

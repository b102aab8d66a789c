"""`capsule-capture browse`: the console browser (a Textual app).

`catalog` reads the archive (lazily: pages of rows, never every row) and is
shared with the plain CLI; `app` and the screen modules are the UI and are
imported only when `browse` runs, so `list`/`show`/`search` never load Textual.
"""

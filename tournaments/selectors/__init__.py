"""Every non-trivial read, one module per audience; selectors never write and never import services.

- ``public``: the tournament list and the public seat list ("Wo sitze ich?")
- ``standings``: the standings pages and downloads, the prize and cash lists, the podium
- ``links``: what a private link opens (a player's page, a table's link)
- ``entry``: the tablet's and paper mode's sheet of a table
- ``desk``: the registration desk and the organiser's rounds page
- ``console``: the organiser's console
- ``printing``: the data of every printed document
- ``signup``: the online sign-up's form and page, the check-in at the door, the invitations
- ``series``, ``audit``, ``personal``: series standings, the audit log, a player's data export
- ``tables``: a table's progress in its round, which every audience shows
"""

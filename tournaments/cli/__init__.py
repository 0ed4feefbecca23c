"""The user interface: the ``tarot-arena`` command (:mod:`.commands`), its tables and reports
(:mod:`.report`), the export (:mod:`.export`), the demo (:mod:`.demo`) and regression testing
(:mod:`.compare`). Nothing below this package imports it."""

"""Playing stored tournaments: the runner that claims and plays tables (:mod:`.runner`),
serving with live progress (:mod:`.live`), cancelling and deleting (:mod:`.manage`)."""

"""Playing stored tournaments: the one runner that claims and plays tables (:mod:`.runner`)
on any arena that plays a table (:mod:`.arena`; the gRPC one in :mod:`.remote`, the in-process
one in :mod:`clients.local`), serving with live progress (:mod:`.live`), regression testing's
sequential play (:mod:`.compare`), imposed boards (:mod:`.imposed`), cancelling and deleting
(:mod:`.manage`)."""

"""The duplicate domain, with no I/O: tournament settings (:mod:`.settings`), who sits where on
which board (:mod:`.seatings`), duplicate scoring and standings (:mod:`.scoring`), the
statistics they rest on (:mod:`.stats`) and the sequential test of regression testing
(:mod:`.sprt`)."""

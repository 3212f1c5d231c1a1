"""The layout check (docs/architecture.md, "Arrows"): which folder may include which, and which
room of tools/ may import which, as data (layout_arrows.json), and its checker (check_layout).
Imports common/ only."""

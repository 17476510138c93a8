"""Inputs floor, widgets several pages share: numbers refused rather than rounded, bounded pastes, the client
choice."""

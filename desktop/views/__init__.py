"""Widgets, dialogs and delegates."""

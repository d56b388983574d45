"""Domain types shared by every part of ClearNote."""

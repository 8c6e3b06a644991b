"""The diagrams in docs/, drawn with pygame-ce from the code and the example configuration they
show, so a changed pin, timing or layer changes the picture: a test fails while a committed PNG
differs from what its driver draws (``make diagrams`` draws them all again)."""

"""The touchscreen scoreboard (pygame-ce): screens drawn from the game, touches sent as commands.

``app`` holds the window and loop, ``screens/`` one module per screen, ``widgets`` the building
blocks, ``touch`` the finger and mouse handling, ``layout`` the scaling from the 800x480 design,
``view`` what is drawn and ``port`` what a touch can ask of the game.
"""

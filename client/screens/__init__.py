"""The app's screens, one module each: lobby, game screens, and the dialogs they share."""

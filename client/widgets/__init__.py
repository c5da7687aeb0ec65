"""The app's widgets, one module each; each renders from the data it is given."""

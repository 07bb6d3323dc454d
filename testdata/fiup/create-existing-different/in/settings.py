"""Settings."""

NAME = "old"

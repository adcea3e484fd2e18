"""Time phrases: what a question's words about time mean, read against a fixed instant."""

"""End-to-end checks against real external programs (n8n); run by hand, never collected by pytest."""

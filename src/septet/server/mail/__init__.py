"""E-mail notices of turn-based tables (issue 28): confirmed addresses, a row-backed outbox,
the templates in English and Japanese, and the sender (``smtplib`` in a thread, with retries).

This package is imported by :mod:`septet.server.db` (its models), so it imports nothing here.
"""

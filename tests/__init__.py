"""pramana's tests. The test process is a command of its own: it makes the process-wide settings
pramana's commands make (pramana/process.py: one BLAS thread) before anything imports numpy."""

from pramana import process

process.for_commands()

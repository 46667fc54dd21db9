from pramana.cli import app

app(prog_name="pramana")

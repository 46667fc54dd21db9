from vedabase_mcp import main

main()

from pramana.entry import main

main()

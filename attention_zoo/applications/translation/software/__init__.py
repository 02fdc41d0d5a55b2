"""English-Spanish software messages: Debian's message catalogs (`recipe`),
read from `.deb` files (`debs`) and gettext catalogs (`catalogs`)."""

# Warnings and hardening flags shared by every target.
add_compile_options(
	-Wall -Wextra -Wno-unused-parameter -Wshadow -Wformat=2
	-Werror=format-security -Werror=implicit-function-declaration
	-Werror=missing-prototypes -Werror=return-type
	-fstack-protector-strong)
if(NOT CMAKE_BUILD_TYPE MATCHES "ASan|Debug")
	add_compile_definitions(_FORTIFY_SOURCE=2)
endif()
add_link_options(-Wl,-z,relro -Wl,-z,now)

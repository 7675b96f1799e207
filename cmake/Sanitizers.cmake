# -DCMAKE_BUILD_TYPE=ASan: AddressSanitizer + UndefinedBehaviorSanitizer.
set(CMAKE_C_FLAGS_ASAN
	"-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
	CACHE STRING "C flags for the ASan build type" FORCE)
set(CMAKE_EXE_LINKER_FLAGS_ASAN "-fsanitize=address,undefined"
	CACHE STRING "" FORCE)
set(CMAKE_SHARED_LINKER_FLAGS_ASAN "-fsanitize=address,undefined"
	CACHE STRING "" FORCE)

# ad_interface_resources(OUT_VAR PREFIX C_NAME XML...): compiles the D-Bus
# interface descriptions XML... (file names in data/) into a GResource
# source under PREFIX, whose name is stored in OUT_VAR.  A service answers
# Introspect from this copy, so data/ stays the one definition of each
# interface that it serves.
find_program(AD_GLIB_COMPILE_RESOURCES glib-compile-resources REQUIRED)

function(ad_interface_resources out_var prefix c_name)
	set(xml ${CMAKE_CURRENT_BINARY_DIR}/${c_name}.gresource.xml)
	set(src ${CMAKE_CURRENT_BINARY_DIR}/${c_name}-resources.c)
	set(body "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gresources>\n")
	string(APPEND body "  <gresource prefix=\"${prefix}\">\n")
	set(deps)
	foreach(file IN LISTS ARGN)
		string(APPEND body "    <file>${file}</file>\n")
		list(APPEND deps ${CMAKE_SOURCE_DIR}/data/${file})
	endforeach()
	string(APPEND body "  </gresource>\n</gresources>\n")
	file(WRITE ${xml} "${body}")
	add_custom_command(OUTPUT ${src}
		COMMAND ${AD_GLIB_COMPILE_RESOURCES} --sourcedir=${CMAKE_SOURCE_DIR}/data
			--generate-source --c-name ${c_name} --target=${src} ${xml}
		DEPENDS ${xml} ${deps}
		COMMENT "Compiling the D-Bus introspection data of ${c_name}")
	# generated code: GLib's own style, not ours
	set_source_files_properties(${src} PROPERTIES
		COMPILE_OPTIONS "-Wno-missing-prototypes;-Wno-shadow")
	set(${out_var} ${src} PARENT_SCOPE)
endfunction()

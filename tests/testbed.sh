# Set-ups shared by the script tests (tests/lib.sh sources this) and the
# benchmarks (bench/dispatch-throughput.sh): a private system bus, an auditd
# collector.  Functions only; collector_dir sets PORT.

# bus_config FILE SOCKET POLICY: a private system bus config: system.conf's
# default policy plus POLICY (XML), listening on SOCKET
bus_config() {
	cat >"$1" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$2</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
    <allow send_destination="org.freedesktop.DBus"
           send_interface="org.freedesktop.DBus.Introspectable"/>
  </policy>
  <policy user="root">
    <allow send_destination="org.freedesktop.DBus"
           send_interface="org.freedesktop.DBus.Monitoring"/>
  </policy>
  $3
</busconfig>
EOF
}

# collector_config FILE PORT PLUGIN_DIR: auditd.conf for a collector that
# logs nothing itself (local_events = no) and hands what audisp-remote sends
# to PORT on loopback to the plugins of PLUGIN_DIR
collector_config() {
	cat >"$1" <<EOF
local_events = no
write_logs = no
log_format = RAW
flush = none
freq = 50
max_log_file = 100
max_log_file_action = ignore
space_left = 2
space_left_action = ignore
admin_space_left = 1
admin_space_left_action = ignore
disk_full_action = ignore
disk_error_action = ignore
tcp_listen_port = $2
tcp_listen_queue = 5
tcp_max_per_addr = 4
use_libwrap = no
tcp_client_max_idle = 0
transport = TCP
distribute_network = yes
q_depth = 4000
overflow_action = syslog
name_format = none
plugin_dir = $3
end_of_event_timeout = 2
EOF
}

# collector_dir DIR DISPATCH: a collector's configuration in DIR (auditd.conf,
# plugins.d/ registering DISPATCH with --config DIR/avcdoctor.conf, mode 0640
# as auditd wants), listening on a free loopback port, which goes in PORT
collector_dir() {
	PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	mkdir -p "$1/plugins.d"
	collector_config "$1/auditd.conf" "$PORT" "$1/plugins.d"
	cat >"$1/plugins.d/avcdoctor-dispatch.conf" <<EOF
active = yes
direction = out
path = $2
type = always
args = --config $1/avcdoctor.conf
format = string
EOF
	chmod 0640 "$1/plugins.d/avcdoctor-dispatch.conf"
}

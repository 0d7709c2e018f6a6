/**
 * What each engine of the topology reads: Patroni's YAML per node, haproxy's and pgbouncer's
 * configurations, written into the topology's directory by startTopology (topology.ts).
 */
import path from "node:path";
import { PG_BIN, type Topology } from "./settings";

export function patroniConfig(t: Topology, i: number): string {
  const name = `pg${i + 1}`;
  const data = path.join(t.dir, name);
  return `scope: storefront-apps
name: ${name}
restapi:
  listen: 127.0.0.1:${t.ports.patroni[i]}
  connect_address: 127.0.0.1:${t.ports.patroni[i]}
etcd3:
  hosts: 127.0.0.1:${t.ports.etcd}
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 4
    maximum_lag_on_failover: 0
    synchronous_mode: true
    # with the standby away the primary goes on alone, and Patroni promotes no node that may lack
    # what it acknowledged meanwhile (decision 052; the failover test's "standby away" phase)
    synchronous_mode_strict: false
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        max_connections: 200
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
        synchronous_commit: "on"
        fsync: "on"
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
    - auth-host: scram-sha-256
    - auth-local: trust
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 scram-sha-256
    - host all all 127.0.0.1/32 scram-sha-256
postgresql:
  listen: 127.0.0.1:${t.ports.pg[i]}
  connect_address: 127.0.0.1:${t.ports.pg[i]}
  data_dir: ${data}
  bin_dir: ${PG_BIN}
  pgpass: ${path.join(t.dir, `${name}.pgpass`)}
  authentication:
    replication:
      username: replicator
      password: ${t.password}
    superuser:
      username: postgres
      password: ${t.password}
    rewind:
      username: postgres
      password: ${t.password}
  parameters:
    unix_socket_directories: ${t.dir}
tags:
  nofailover: false
  noloadbalance: false
  clonefrom: false
  nosync: false
`;
}

export function haproxyConfig(t: Topology): string {
  const pgServers = (check: string) =>
    t.ports.pg
      .map((p, i) => `  server pg${i + 1} 127.0.0.1:${p} check port ${t.ports.patroni[i]}`)
      .join("\n")
      .replace(/^/, `  option httpchk GET ${check}\n  http-check expect status 200\n`);
  return `global
  maxconn 4000
  log stderr format short local0 notice
  # the servers' states as haproxy sees them (haproxyServers): the topology waits for them to agree with Patroni
  stats socket ${path.join(t.dir, "haproxy.sock")} mode 600 level user
defaults
  log global
  timeout connect 2s
  timeout client 1h
  timeout server 1h
  timeout check 2s
  retries 3
# the platform: two web processes, each taken out while its /healthz fails (its database is away)
frontend http
  mode http
  bind 127.0.0.1:${t.ports.balancer}
  option forwardfor
  default_backend web
backend web
  mode http
  balance roundrobin
  option httpchk GET /healthz
  http-check expect status 200
  # a web process killed mid-connection: a new connection goes to the other one
  option redispatch
  retry-on conn-failure empty-response response-timeout
  timeout server 30s
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${t.ports.web.map((p, i) => `  server web${i + 1} 127.0.0.1:${p} check`).join("\n")}
# PostgreSQL: the node Patroni calls the primary; the other (streaming standby) for stale-tolerant reads
listen pg_primary
  mode tcp
  bind 127.0.0.1:${t.ports.pgPrimary}
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${pgServers("/primary")}
listen pg_replica
  mode tcp
  bind 127.0.0.1:${t.ports.pgReplica}
  balance roundrobin
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${pgServers("/read-only")}
`;
}

export function pgbouncerConfig(t: Topology): string {
  return `[databases]
platform = host=127.0.0.1 port=${t.ports.pgPrimary} dbname=platform
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${t.ports.pgbouncer}
unix_socket_dir =
auth_type = scram-sha-256
auth_file = ${path.join(t.dir, "pgbouncer.users")}
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 40
server_reset_query =
server_check_delay = 0
server_connect_timeout = 3
server_login_retry = 1
ignore_startup_parameters = extra_float_digits,options
`;
}

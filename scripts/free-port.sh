#!/usr/bin/env bash
# Prints <count> (default 1) distinct TCP ports free on 127.0.0.1 now, one a line: the scripts take their ports at run
# time, so two runs on one host (two CI jobs) never collide on a fixed one.
# Chosen at random below the kernel's ephemeral range (net.ipv4.ip_local_port_range), never from it: a port the kernel
# picked is one it hands out again to the next outgoing connection or `listen(0)`, and a server that binds it only a
# minute later (Keycloak builds itself first) found it taken ("Port(s) already bound").
# Usage: port=$(scripts/free-port.sh); read -r a b < <(scripts/free-port.sh 2 | paste -sd' ')
set -euo pipefail
read -r ephemeral_low _ < /proc/sys/net/ipv4/ip_local_port_range
# All listeners are open before any is closed, so the ports differ.
exec node -e '
const net = require("node:net");
const [count, ephemeralLow] = process.argv.slice(1).map(Number);
// Above the well-known services (PostgreSQL 5432, Redis 6379, …) and the last port fetch and browsers refuse to call
// (10080, on the bad-port list of the Fetch standard: a fetch to it fails); the range the kernel keeps to its own choice.
const low = 10081, high = ephemeralLow - 1;
const listen = (port) => new Promise((resolve, reject) => {
  const server = net.createServer().once("error", reject).listen(port, "127.0.0.1", () => resolve(server));
});
async function freePort() {
  if (high - low < 1000) return listen(0);
  for (;;) {
    const server = await listen(low + Math.floor(Math.random() * (high - low + 1))).catch(() => undefined);
    if (server) return server;
  }
}
(async () => {
  const servers = [];
  for (let index = 0; index < count; index++) servers.push(await freePort());
  console.log(servers.map((server) => server.address().port).join("\n"));
  for (const server of servers) server.close();
})();' "${1:-1}" "$ephemeral_low"

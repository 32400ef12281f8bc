#!/usr/bin/env bash
# Prints <count> (default 1) distinct TCP ports free on 127.0.0.1 now, one a line, chosen by the kernel: the scripts
# take their ports at run time, so two runs on one host (two CI jobs) never collide on a fixed one.
# Usage: port=$(scripts/free-port.sh); read -r a b < <(scripts/free-port.sh 2 | paste -sd' ')
set -euo pipefail
# All listeners are open before any is closed, so the ports differ.
exec node -e '
const net = require("node:net");
const count = Number(process.argv[1] ?? 1);
Promise.all(Array.from({ length: count }, () => new Promise((resolve) => {
  const server = net.createServer().listen(0, "127.0.0.1", () => resolve(server));
}))).then((servers) => {
  console.log(servers.map((server) => server.address().port).join("\n"));
  for (const server of servers) server.close();
});' "${1:-1}"

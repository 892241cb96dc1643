// System tools the test command needs that npm cannot provide: Debian's Chromium (Playwright
// drives it; nothing downloads a browser), docker-compose (it checks docker-compose.yml) and
// Prometheus (promtool tests the shipped alert rules and checks a real scrape; the edge stack
// runs the server itself).
// Installed through apt-get when missing; CI runs as root on Debian.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const wanted = [
  { binary: '/usr/bin/chromium', pkg: 'chromium' },
  { binary: '/usr/bin/docker-compose', pkg: 'docker-compose' },
  { binary: '/usr/bin/promtool', pkg: 'prometheus' },
];
const missing = wanted.filter((w) => !existsSync(w.binary)).map((w) => w.pkg);
if (missing.length === 0) {
  console.log('system packages present: chromium, docker-compose, prometheus');
  process.exit(0);
}
console.log(`installing with apt-get: ${missing.join(' ')}`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
for (const args of [
  ['apt-get', 'update', '-q'],
  ['apt-get', 'install', '-y', '-q', '--no-install-recommends', ...missing],
]) {
  const command = [...sudo, ...args];
  const result = spawnSync(command[0], command.slice(1), { stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`\`${command.join(' ')}\` failed; install ${missing.join(' ')} and run again`);
    process.exit(result.status ?? 1);
  }
}

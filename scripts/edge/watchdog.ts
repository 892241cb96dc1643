/**
 * Runs a program that is not Node (Envoy, rclone) so it ends with its launcher, however the
 * launcher ends. Started in a process group of its own, such a program gets no signal when its
 * launcher is SIGKILLed; a Node server watches its IPC channel instead (server/src/shutdown.ts).
 * This shell runs the program with stdin from /dev/null and reads its own stdin, a pipe from the
 * launcher: the kernel closes that pipe when the launcher ends, and the shell then sends the
 * program SIGTERM. A SIGTERM to the shell reaches the program too; the shell exits with the
 * program's status.
 */
export const WATCHDOG_SCRIPT = `
exec 3<&0
"$@" </dev/null 3<&- &
server=$!
trap 'kill -TERM "$server" 2>/dev/null' TERM INT HUP
{ while read -r _ <&3; do :; done; kill -TERM "$server" 2>/dev/null; } &
watcher=$!
status=0
while kill -0 "$server" 2>/dev/null; do wait "$server"; status=$?; done
kill "$watcher" 2>/dev/null
exit "$status"
`;

/** The argv that runs `argv` under the watchdog; spawn it with stdin a pipe that stays open. */
export function watchedArgv(name: string, argv: string[]): string[] {
  return ['sh', '-c', WATCHDOG_SCRIPT, `${name}-watchdog`, ...argv];
}

"""A real SMTP server for the notification tests (aiosmtpd): prints one JSON line per message
it accepts, refuses recipients whose mailbox starts with "reject" with 550, and first prints
{"port": N} once it listens."""

import asyncio
import json
import socket

from aiosmtpd.controller import Controller


class Sink:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("reject"):
            return "550 5.1.1 mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        print(
            json.dumps(
                {
                    "from": envelope.mail_from,
                    "to": envelope.rcpt_tos,
                    "data": envelope.content.decode("utf8", errors="replace"),
                }
            ),
            flush=True,
        )
        return "250 Message accepted for delivery"


async def main():
    # The controller checks its server by connecting to the port it was given: port 0 cannot be
    # checked, so a free port is chosen first.
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    controller = Controller(Sink(), hostname="127.0.0.1", port=port)
    controller.start()
    print(json.dumps({"port": port}), flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        controller.stop()


asyncio.run(main())

"""schemathesis hooks for scripts/schemathesis: whose bearer token each request carries.

Every operation runs as the whitelisted rider `fuzz1`, logged in once by the script, but the
driver's (`DRIVER_OPERATIONS`), which run as the driver `fuzzd1` (on shift on the first van when the
run starts); DriverRoutesTests checks that a rider is refused each of them. The other
exception is `DELETE /v1/session` (log out): it would end that session for the rest of the run,
so each of its requests logs a second rider, `fuzz2`, in afresh and logs that session out.
(`fuzz1` may be locked out of signing in by the fuzzer's wrong passwords on `POST /v1/password`;
`fuzz2` never is.)
"""
import json
import os
import urllib.request

import schemathesis


def bearer(case, token):
    case.headers = case.headers or {}
    case.headers["Authorization"] = f"Bearer {token}"


@schemathesis.auth(refresh_interval=None).apply_to(operation_id="logout")
class FreshSession:
    def get(self, case, context):
        body = json.dumps({"net_id": "fuzz2", "password": os.environ["VAND_FUZZ_PASSWORD2"]}).encode()
        request = urllib.request.Request(os.environ["VAND_FUZZ_BASE"] + "/v1/session", data=body, method="POST",
                                         headers={"content-type": "application/json", "x-forwarded-for": "127.0.0.2"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)["token"]

    def set(self, case, data, context):
        bearer(case, data)


DRIVER_OPERATIONS = ["driverShift", "startShift", "endShift", "driverRun", "tap", "undoTap", "postPosition"]


@schemathesis.auth(refresh_interval=None).apply_to(operation_id=DRIVER_OPERATIONS)
class DriverToken:
    def get(self, case, context):
        return os.environ["VAND_FUZZ_DRIVER_TOKEN"]

    def set(self, case, data, context):
        bearer(case, data)


@schemathesis.auth(refresh_interval=None).skip_for(operation_id=["logout", *DRIVER_OPERATIONS])
class RiderToken:
    def get(self, case, context):
        return os.environ["VAND_FUZZ_TOKEN"]

    def set(self, case, data, context):
        bearer(case, data)

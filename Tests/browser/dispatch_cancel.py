"""Cancelling a ride from the console (run by dispatch.py): the service cancels with a reason
(refused by the field without one, the choice and the text kept), then the rider's own
cancellation made for her on the phone with JavaScript off; the rider's API shows each ride
cancelled; axe on the ride's page with the cancel form.
"""
import datetime

from suite import ZONE, check

RIDERS = (("cc320", "Cal Cancel"), ("cc321", "Cat Cancel"))


def flows(console):
    server = console.server
    d = console.dispatcher
    day = datetime.datetime.now(ZONE).date() + datetime.timedelta(days=1)

    def book(rider, hour):
        """An approved SCL → Davenport ride for `rider` tomorrow at `hour`:00: its reference, id and her token."""
        body, token = console.approved_ride(rider, day, hour)
        return body["ref"], body["id"], token

    def riders_status(ride_id, token):
        status, body = server.api("GET", f"/v1/rides/{ride_id}", None, token)
        check(status == 200, f"the rider's GET of her ride answered {status}")
        return body["status"]

    def the_service_cancels_with_a_reason_refused_by_the_field_without_one():
        ref, ride_id, token = book(RIDERS[0], 18)
        d.go(f"/dispatch/rides/{ref}")
        d.wait_text("Cancel the ride")
        d.audit("dispatch-ride-cancel")
        d.click("#who-service")
        d.click("form[action$='/cancel'] button[type=submit]")
        d.wait_text("Enter the reason the rider is told")
        check(d.el("#reason").get_attribute("aria-invalid") == "true", "the reason field is not marked invalid")
        check(d.el("#who-service").is_selected(), "the choice of who cancels was not kept")
        check(riders_status(ride_id, token) == "approved", "a refused cancellation changed the ride")
        d.type("#reason", "Van 2 broke down")
        d.click("form[action$='/cancel'] button[type=submit]")
        d.wait_text("The ride is cancelled")
        check("Cancelled" in d.main_text() and "ride cancel" in d.main_text(), f"the page reads {d.main_text()[:500]!r}")
        check(riders_status(ride_id, token) == "cancelled", "the rider does not see her ride cancelled")

    def the_riders_own_cancellation_made_for_her_with_javascript_off():
        ref, ride_id, token = book(RIDERS[1], 19)
        n = console.nojs
        n.go(f"/dispatch/rides/{ref}")
        n.wait_text("Cat asked: her own cancellation")
        n.click("form[action$='/cancel'] button[type=submit]")
        n.wait_text("The ride is cancelled")
        check("ride cancel for rider" in n.main_text(), "the history does not show the cancellation made for her")
        check(riders_status(ride_id, token) == "cancelled", "the rider does not see her ride cancelled")

    return [
        ("cancel: the service cancels with a reason; without one, refused by the field", the_service_cancels_with_a_reason_refused_by_the_field_without_one),
        ("cancel: the rider's own cancellation made for her, JavaScript off", the_riders_own_cancellation_made_for_her_with_javascript_off),
    ]

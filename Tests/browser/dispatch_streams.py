"""A dispatcher's fifth console stream (run by dispatch.py): the queue page's stream is her
oldest, so a newer page takes its place; the page says so in its live region and keeps looking
again on its own instead of going quiet.
"""
import urllib.request

from suite import check


def flows(console):
    server = console.server
    d = console.dispatcher

    def a_fifth_page_takes_the_oldest_pages_place_and_it_says_so():
        d.go("/dispatch")
        d.wait(lambda _: d.el("#queue-part").get_attribute("data-live") == "open", "the queue's stream never opened")
        cookie = d.d.get_cookie("vand_session")
        check(cookie is not None, "no session cookie in the browser")
        streams = []
        try:
            # More streams of the same dispatcher (other screens). Pages this browser left may still
            # count until the server next writes to them, and they are older still: eight new ones
            # are past any of those, so the page's stream is closed too.
            for _ in range(8):
                request = urllib.request.Request(server.base + "/dispatch/stream")
                request.add_header("cookie", f"vand_session={cookie['value']}")
                answer = urllib.request.urlopen(request, timeout=30)
                check(answer.status == 200, f"a console stream answered {answer.status}")
                answer.readline()  # its first line: the stream is open
                streams.append(answer)
            d.wait(lambda _: "Live updates moved to a newer console page" in d.el("#live").text,
                   "the page never said its live updates moved")
            check(d.el("#queue-part").get_attribute("data-live") is None, "the page still claims to be live")
        finally:
            for stream in streams:
                stream.close()

    return [
        ("streams: a fifth console page takes the oldest page's place, and that page says so", a_fifth_page_takes_the_oldest_pages_place_and_it_says_so),
    ]

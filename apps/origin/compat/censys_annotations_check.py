#!/usr/bin/env python3
"""Runs the tag and comment methods of the official Censys Python client, unmodified, against a
scangate edge (tags and comments shared by the team) or origin (each account's own).

Environment: SCANGATE_URL (e.g. http://127.0.0.1:8787), tenant A's SCANGATE_API_ID and
SCANGATE_API_SECRET, and tenant B's SCANGATE_API_ID_B and SCANGATE_API_SECRET_B. With B the same
credential as A (an origin account alone), the cross-tenant checks are skipped: B seeing A's tags,
B refused (403) when editing or deleting A's comments.

Every method of CensysHosts and CensysCerts for tags and comments is exercised (create_tag,
list_all_tags, get_tag, update_tag, add_tag_to_document, list_tags_on_document,
list_hosts_with_tag, list_certs_with_tag, remove_tag_from_document, delete_tag, add_comment,
get_comments, update_comment, delete_comment), and each check asserts the data the service
answers. Exits 1 when any check fails.
"""

import os
import secrets
import sys
import traceback

from censys.common.exceptions import CensysException
from censys.common.version import __version__ as censys_version
from censys.search import CensysCerts, CensysHosts


def setting(name):
    value = os.environ.get(name)
    if not value:
        sys.exit(f"set {name}")
    return value


SERVICE_URL = setting("SCANGATE_URL").rstrip("/")
A = {"api_id": setting("SCANGATE_API_ID"), "api_secret": setting("SCANGATE_API_SECRET")}
B = {"api_id": setting("SCANGATE_API_ID_B"), "api_secret": setting("SCANGATE_API_SECRET_B")}
CROSS_TENANT = A != B
CLIENT_OPTIONS = {"max_retries": 1, "timeout": 60}

hosts_a = CensysHosts(url=f"{SERVICE_URL}/api", **A, **CLIENT_OPTIONS)
certs_a = CensysCerts(url=f"{SERVICE_URL}/api", **A, **CLIENT_OPTIONS)
hosts_b = CensysHosts(url=f"{SERVICE_URL}/api", **B, **CLIENT_OPTIONS)
certs_b = CensysCerts(url=f"{SERVICE_URL}/api", **B, **CLIENT_OPTIONS)

# Fresh names and documents per run, so a run never sees an earlier run's annotations.
RUN = secrets.token_hex(4)
HOST = f"198.51.100.{secrets.randbelow(254) + 1}"
CERT = secrets.token_hex(32)
TAG_NAME = f"honeypot-{RUN}"

failures = []
state = {}


def check(name, cross_tenant=False):
    """Runs the decorated function as a named check and records its failure."""

    def run(function):
        if cross_tenant and not CROSS_TENANT:
            print(f"skip  {name} (one credential)")
            return function
        try:
            function()
            print(f"ok    {name}")
        except Exception as error:  # noqa: BLE001 - every failure is reported, then counted
            failures.append(name)
            print(f"FAIL  {name}: {error!r}")
            traceback.print_exc(limit=3)
        return function

    return run


def refused(status, call):
    """`call` raises the client's exception for an HTTP `status` answer."""
    try:
        call()
    except CensysException as error:
        assert getattr(error, "status_code", None) == status, f"expected {status}, got {error!r}"
        return error
    raise AssertionError(f"expected a {status} refusal, the call succeeded")


def is_timestamp(text):
    return isinstance(text, str) and len(text) == 27 and text[10] == "T" and text.endswith("Z")


@check("create_tag answers the tag with its id, name, color and times")
def create_tag():
    tag = hosts_a.create_tag(TAG_NAME, "#FF0000")
    assert tag["name"] == TAG_NAME, tag
    assert tag["metadata"]["color"].lower() == "#ff0000", tag
    assert tag["id"], tag
    assert is_timestamp(tag["created_at"]) and is_timestamp(tag["updated_at"]), tag
    state["tag"] = tag
    plain = certs_a.create_tag(f"plain-{RUN}")
    assert plain["metadata"] == {} or "color" not in plain["metadata"], plain
    state["plain"] = plain


@check("create_tag with a name already taken is refused with 409")
def duplicate_tag():
    refused(409, lambda: hosts_a.create_tag(TAG_NAME.upper()))


@check("list_all_tags and get_tag show the tag, through both indexes")
def list_and_get():
    for api in (hosts_a, certs_a):
        ids = [tag["id"] for tag in api.list_all_tags()]
        assert state["tag"]["id"] in ids and state["plain"]["id"] in ids, ids
        assert api.get_tag(state["tag"]["id"]) == state["tag"]


@check("tenant B sees tenant A's tags", cross_tenant=True)
def b_sees_tags():
    ids = [tag["id"] for tag in hosts_b.list_all_tags()]
    assert state["tag"]["id"] in ids, ids
    assert certs_b.get_tag(state["tag"]["id"])["name"] == TAG_NAME


@check("update_tag renames the tag and keeps its color when none is given")
def update_tag():
    editor = hosts_b if CROSS_TENANT else hosts_a
    renamed = editor.update_tag(state["tag"]["id"], f"{TAG_NAME}-renamed")
    assert renamed["name"] == f"{TAG_NAME}-renamed", renamed
    assert renamed["metadata"]["color"].lower() == "#ff0000", renamed
    assert renamed["created_at"] == state["tag"]["created_at"], renamed
    recolored = hosts_a.update_tag(state["tag"]["id"], TAG_NAME, "#00ff00")
    assert recolored["metadata"]["color"].lower() == "#00ff00", recolored
    assert hosts_a.get_tag(state["tag"]["id"])["name"] == TAG_NAME


@check("get_tag of an unknown id is refused with 404")
def unknown_tag():
    refused(404, lambda: hosts_a.get_tag(f"tag_unknown_{RUN}"))


@check("add_tag_to_document puts the tag on a host and a certificate; list_tags_on_document shows it")
def add_tags():
    tag_id = state["tag"]["id"]
    hosts_a.add_tag_to_document(HOST, tag_id)
    (certs_b if CROSS_TENANT else certs_a).add_tag_to_document(CERT, tag_id)
    hosts_a.add_tag_to_document(HOST, tag_id)  # again: no change
    assert [tag["id"] for tag in hosts_a.list_tags_on_document(HOST)] == [tag_id]
    assert [tag["id"] for tag in certs_a.list_tags_on_document(CERT)] == [tag_id]


@check("list_hosts_with_tag and list_certs_with_tag list the tagged documents")
def tagged_lists():
    tag_id = state["tag"]["id"]
    assert hosts_a.list_hosts_with_tag(tag_id) == [HOST]
    assert certs_a.list_certs_with_tag(tag_id) == [CERT]
    if CROSS_TENANT:
        assert hosts_b.list_hosts_with_tag(tag_id) == [HOST]


@check("add_tag_to_document on something that is not an IP is refused with 422")
def bad_ip():
    refused(422, lambda: hosts_a.add_tag_to_document("not-an-ip", state["tag"]["id"]))
    refused(422, lambda: certs_a.add_tag_to_document("abcd", state["tag"]["id"]))


@check("remove_tag_from_document takes the tag off; removing it again is 404")
def remove_tag():
    tag_id = state["tag"]["id"]
    hosts_a.remove_tag_from_document(HOST, tag_id)
    assert hosts_a.list_tags_on_document(HOST) == []
    assert hosts_a.list_hosts_with_tag(tag_id) == []
    refused(404, lambda: hosts_a.remove_tag_from_document(HOST, tag_id))


@check("delete_tag deletes it and takes it off every document")
def delete_tag():
    for tag in (state["tag"], state["plain"]):
        hosts_a.delete_tag(tag["id"])
        refused(404, lambda tag=tag: hosts_a.get_tag(tag["id"]))
    assert certs_a.list_tags_on_document(CERT) == []
    ids = [tag["id"] for tag in hosts_a.list_all_tags()]
    assert state["tag"]["id"] not in ids, ids


@check("add_comment answers the comment; get_comments lists it, on hosts and certificates")
def add_comments():
    on_host = hosts_a.add_comment(HOST, "**seen scanning**")
    assert on_host["ip"] == HOST and on_host["contents"] == "**seen scanning**", on_host
    assert on_host["id"] and on_host["author_id"] and is_timestamp(on_host["created_at"]), on_host
    on_cert = certs_a.add_comment(CERT, "weak key")
    assert on_cert["fingerprint"] == CERT and on_cert["contents"] == "weak key", on_cert
    assert [c["id"] for c in hosts_a.get_comments(HOST)] == [on_host["id"]]
    assert certs_a.get_comments(CERT) == [on_cert]
    state["comment"], state["cert_comment"] = on_host, on_cert


@check("tenant B reads A's comments and adds its own", cross_tenant=True)
def b_reads_comments():
    comments = hosts_b.get_comments(HOST)
    assert [c["id"] for c in comments] == [state["comment"]["id"]], comments
    theirs = hosts_b.add_comment(HOST, "confirmed")
    assert theirs["author_id"] != state["comment"]["author_id"], theirs
    state["b_comment"] = theirs


@check("tenant B cannot edit or delete A's comment (403), and it is unchanged", cross_tenant=True)
def b_refused():
    comment_id = state["comment"]["id"]
    refused(403, lambda: hosts_b.update_comment(HOST, comment_id, "mine now"))
    refused(403, lambda: hosts_b.delete_comment(HOST, comment_id))
    refused(403, lambda: certs_b.delete_comment(CERT, state["cert_comment"]["id"]))
    mine = [c for c in hosts_a.get_comments(HOST) if c["id"] == comment_id]
    assert mine and mine[0]["contents"] == "**seen scanning**", mine


@check("update_comment changes the author's own comment")
def update_comment():
    hosts_a.update_comment(HOST, state["comment"]["id"], "edited")
    certs_a.update_comment(CERT, state["cert_comment"]["id"], "edited too")
    assert [c["contents"] for c in hosts_a.get_comments(HOST) if c["id"] == state["comment"]["id"]] == ["edited"]
    assert [c["contents"] for c in certs_a.get_comments(CERT)] == ["edited too"]


@check("add_comment without contents is refused with 400; on a bad IP with 422")
def bad_comments():
    refused(400, lambda: hosts_a.add_comment(HOST, ""))
    refused(422, lambda: hosts_a.add_comment("999.1.1.1", "x"))


@check("delete_comment removes the author's own comment; again it is 404")
def delete_comment():
    hosts_a.delete_comment(HOST, state["comment"]["id"])
    certs_a.delete_comment(CERT, state["cert_comment"]["id"])
    left = [c["id"] for c in hosts_a.get_comments(HOST)]
    assert state["comment"]["id"] not in left, left
    assert certs_a.get_comments(CERT) == []
    refused(404, lambda: hosts_a.delete_comment(HOST, state["comment"]["id"]))
    if "b_comment" in state:
        hosts_b.delete_comment(HOST, state["b_comment"]["id"])
    assert hosts_a.get_comments(HOST) == []


print(
    f"censys-python {censys_version} annotations against {SERVICE_URL}"
    f" ({'two tenants' if CROSS_TENANT else 'one credential'}): {len(failures)} failure(s)"
)
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
"""Runs the official Censys Python client, unmodified, against a scangate origin or edge.

Environment: the service to check and its credential, SCANGATE_URL (e.g. http://127.0.0.1:8787
for an edge, with a tenant's SCANGATE_API_ID and SCANGATE_API_SECRET), or the origin's names
ORIGIN_URL (e.g. http://127.0.0.1:8788), ORIGIN_API_ID, ORIGIN_API_SECRET. Optional:
SCANGATE_EXPECT_LOGIN and SCANGATE_EXPECT_ALLOWANCE, what account() must answer (an edge answers
with the tenant's own account, never the upstream one); SCANGATE_EXPECT_UPSTREAM_API=platform for
an edge whose upstream speaks only the Platform API (UPSTREAM_API=platform): the checks of routes
with no Platform equivalent then expect that route's 501, which says why.

The client is used exactly as its users do: CensysHosts gets the base URL `<origin>/api` (it
appends /v2/... and /v1/account), CensysCertificates gets `<origin>/api/v1` (its default URL
ends in /api/v1 and it appends /search/..., /view/..., /bulk/..., /report/...).

Every check asserts data, not only the absence of an exception: answers are cross-checked
against each other (search against view, aggregate against the hosts a search returns, bulk
against view, report against search counts, host names against the certificates, events and
diffs against the views at their times, hosts by certificate against their views). Exits 1
when any check fails. The whole run stays within a standard tier's burst limit (60 calls a
minute), since the e2e suite runs it through the edge with the demo tenant.
"""

import copy
import datetime
import os
import sys
import traceback
from collections import Counter

from censys.common.exceptions import CensysAPIException, CensysNotFoundException, CensysSearchException
from censys.common.version import __version__ as censys_version
from censys.search import CensysCertificates, CensysCerts, CensysData, CensysHosts


def setting(name, origin_name):
    value = os.environ.get(name) or os.environ.get(origin_name)
    if not value:
        sys.exit(f"set {name} (or {origin_name})")
    return value


SERVICE_URL = setting("SCANGATE_URL", "ORIGIN_URL").rstrip("/")
CREDENTIALS = {
    "api_id": setting("SCANGATE_API_ID", "ORIGIN_API_ID"),
    "api_secret": setting("SCANGATE_API_SECRET", "ORIGIN_API_SECRET"),
}
EXPECTED_LOGIN = os.environ.get("SCANGATE_EXPECT_LOGIN")
EXPECTED_ALLOWANCE = os.environ.get("SCANGATE_EXPECT_ALLOWANCE")
PLATFORM_ONLY = os.environ.get("SCANGATE_EXPECT_UPSTREAM_API") == "platform"
# Keep the runs quick: the client's defaults retry 5 times with backoff on 429s and timeouts.
CLIENT_OPTIONS = {"max_retries": 1, "timeout": 60}

hosts = CensysHosts(url=f"{SERVICE_URL}/api", **CREDENTIALS, **CLIENT_OPTIONS)
certificates = CensysCertificates(url=f"{SERVICE_URL}/api/v1", **CREDENTIALS, **CLIENT_OPTIONS)
data = CensysData(url=f"{SERVICE_URL}/api/v1", **CREDENTIALS, **CLIENT_OPTIONS)
certs = CensysCerts(url=f"{SERVICE_URL}/api", **CREDENTIALS, **CLIENT_OPTIONS)

failures = []


def expect_not_implemented(call):
    """The call answers the 501 of a route with no Platform equivalent; returns its message."""
    try:
        call()
    except CensysAPIException as error:
        assert error.status_code == 501, error
        assert "only the Censys Platform API" in (error.message or ""), error.message
        return error.message
    raise AssertionError("a route with no Platform equivalent answered")


def check(name, platform_gap=None):
    """
    Runs the decorated function as a named check and records its failure. With a Platform-only
    upstream, a check of a route with no Platform equivalent runs `platform_gap` instead: the
    route's call, which must answer the 501.
    """

    def run(function):
        try:
            if PLATFORM_ONLY and platform_gap:
                message = expect_not_implemented(platform_gap)
                print(f"ok    {name}: 501 as expected ({message})")
                return function
            function()
            print(f"ok    {name}")
        except Exception as error:  # noqa: BLE001 - every failure is reported, then counted
            failures.append(name)
            print(f"FAIL  {name}: {error!r}")
            traceback.print_exc(limit=3)
        return function

    return run


def ip_key(ip):
    return tuple(int(octet) for octet in ip.split("."))


def parse_time(text):
    # Python 3.11 reads "Z" but at most microseconds: drop sub-microsecond digits.
    head, dot, rest = text.rstrip("Z").partition(".")
    fraction = (dot + rest[:6]) if dot else ""
    return datetime.datetime.fromisoformat(head + fraction).replace(tzinfo=datetime.timezone.utc)


def summary(services):
    return sorted((s["port"], s["service_name"], s["transport_protocol"]) for s in services)


state = {}


def needs(key):
    """What an earlier check found; a clear failure when that check failed."""
    if key not in state:
        raise AssertionError(f"needs {key!r} from an earlier check that failed")
    return state[key]


@check("CensysHosts.search iterates two pages in address order without overlap")
def hosts_search_two_pages():
    query = hosts.search("", per_page=3, pages=2)
    pages = [page for page in query]
    assert len(pages) == 2, f"expected 2 pages, got {len(pages)}"
    hits = [hit for page in pages for hit in page]
    assert all(len(page) == 3 for page in pages), [len(p) for p in pages]
    ips = [hit["ip"] for hit in hits]
    assert len(set(ips)) == len(ips), "a host appeared on both pages"
    assert ips == sorted(ips, key=ip_key), "hits are not in address order"
    for hit in hits:
        assert isinstance(hit["services"], list) and hit["services"], hit
        assert {"port", "service_name"} <= set(hit["services"][0]), hit["services"][0]
        assert "location" in hit and "autonomous_system" in hit and "last_updated_at" in hit, hit
    state["hits"] = hits


@check("CensysHosts.search total agrees with aggregate total and the links end with an empty next")
def hosts_search_total():
    raw = hosts.raw_search("", per_page=1)
    assert raw["code"] == 200 and raw["status"] == "OK", raw
    total = raw["result"]["total"]
    aggregate = hosts.aggregate("", "location.country_code", num_buckets=1000)
    assert aggregate["total"] == total, (aggregate["total"], total)
    assert raw["result"]["links"]["prev"] == "", raw["result"]["links"]
    state["total"] = total


@check("CensysHosts.view returns the host a search hit names, with the same services")
def hosts_view():
    hit = needs("hits")[0]
    host = hosts.view(hit["ip"])
    assert host["ip"] == hit["ip"], host["ip"]
    assert summary(host["services"]) == summary(hit["services"]), (host["services"], hit["services"])
    assert host["last_updated_at"] == hit["last_updated_at"]
    state["host"] = host


@check("CensysHosts.view with at_time gives the host as it was then")
def hosts_view_at_time():
    host = needs("host")
    updated = parse_time(host["last_updated_at"])
    # Now (a datetime, which the client formats with microseconds): the current document.
    now = datetime.datetime.now(datetime.timezone.utc)
    assert hosts.view(host["ip"], at_time=now) == host
    # A nanosecond timestamp string, just after the last update: still the current document.
    just_after = (updated + datetime.timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%S") + ".000000001Z"
    assert hosts.view(host["ip"], at_time=just_after) == host
    # Before the last update: an older version (or none, if the host is that new).
    before = updated - datetime.timedelta(microseconds=1)
    try:
        older = hosts.view(host["ip"], at_time=before)
        assert older["ip"] == host["ip"]
        assert parse_time(older["last_updated_at"]) <= before, older["last_updated_at"]
        assert older != host, "the version before the last update equals the current one"
    except CensysNotFoundException:
        pass
    # Long before the dataset: no host.
    try:
        hosts.view(host["ip"], at_time=datetime.datetime(2000, 1, 1))
        raise AssertionError("a host existed in 2000")
    except CensysNotFoundException:
        pass


@check("CensysHosts.aggregate counts the services of exactly the hosts a search returns")
def hosts_aggregate():
    countries = hosts.aggregate("", "location.country_code", num_buckets=1000)
    assert all(isinstance(bucket["key"], str) for bucket in countries["buckets"])
    assert countries["potential_deviation"] == 0 and countries["total_omitted"] == 0, countries
    # The rarest country: few enough hosts to fetch them all through search.
    smallest = min(countries["buckets"], key=lambda bucket: bucket["count"])
    query = f"location.country_code: {smallest['key']}"
    matching = [hit for page in hosts.search(query, per_page=100, pages=-1) for hit in page]
    assert len(matching) == smallest["count"], (len(matching), smallest)
    expected = Counter(str(service["port"]) for hit in matching for service in hit["services"])
    ports = hosts.aggregate(query, "services.port", num_buckets=1000)
    assert ports["query"] == query and ports["field"] == "services.port"
    assert ports["total"] == len(matching), (ports["total"], len(matching))
    assert {bucket["key"]: bucket["count"] for bucket in ports["buckets"]} == dict(expected)
    top = hosts.aggregate(query, "services.port", num_buckets=1)
    assert len(top["buckets"]) == 1
    assert top["total_omitted"] == sum(expected.values()) - top["buckets"][0]["count"], top


@check(
    "CensysHosts.metadata lists the service names, each one a search finds",
)
def hosts_metadata():
    names = hosts.metadata()["services"]
    assert names and names == sorted(names, key=str.lower), names
    assert len({name.lower() for name in names}) == len(names), names
    for name in names[:3]:
        hits = hosts.search(f"services.service_name: {name}", per_page=1)()
        assert hits, name


def domain_names(names):
    """The names a host's names list can hold: domains, not wildcard patterns."""
    return {name.lower() for name in names if not name.startswith("*.")}


@check(
    "CensysHosts.view_host_names lists the names on the host's certificates, a page at a time",
)
def hosts_view_host_names():
    hit = hosts.search("services.certificate: *", per_page=1)()[0]
    host = hosts.view(hit["ip"])
    names = hosts.view_host_names(host["ip"], per_page=1000)
    assert isinstance(names, list) and names, names
    assert names == sorted(set(names)), names
    for service in host["services"]:
        leaf = service.get("tls", {}).get("certificates", {}).get("leaf_data", {})
        assert domain_names(leaf.get("names", [])) <= set(names), (leaf.get("names"), names)
    fingerprint = next(s["certificate"] for s in host["services"] if "certificate" in s)
    parsed = certificates.view(fingerprint)["parsed"]
    assert domain_names(parsed.get("names", [])) <= set(names), (parsed.get("names"), names)
    # The client returns only the names; the cursor comes from the raw page's links.
    first = hosts._get(f"/v2/hosts/{host['ip']}/names", {"per_page": 1})["result"]
    assert first["names"] == names[:1] and first["links"]["prev"] == "", first
    if len(names) > 1:
        assert hosts.view_host_names(host["ip"], per_page=1, cursor=first["links"]["next"]) == names[1:2]
    else:
        assert first["links"]["next"] == "", first
    state["named_host"] = (host, fingerprint)


@check(
    "CensysHosts.view_host_events tells the history that views at those times show",
)
def hosts_view_host_events():
    # The hosts the search check found; most have changed at least once in the history window.
    for hit in needs("hits"):
        events = hosts.view_host_events(hit["ip"], per_page=50)
        times = sorted({event["timestamp"] for event in events}, key=parse_time)
        if len(times) >= 2 and len(events) < 50:
            break
    else:
        raise AssertionError("no host the search returned has changed in its history")
    ip = hit["ip"]
    for event in events:
        assert event["_event"] in event and event["timestamp"], event
    instants = [parse_time(event["timestamp"]) for event in events]
    assert instants == sorted(instants), "events are not in time order"
    assert hosts.view_host_events(ip, per_page=50, reversed=True) == list(reversed(events))
    assert hosts.view_host_events(ip, per_page=2) == events[:2]
    window = hosts.view_host_events(ip, start_time=times[0], end_time=times[1], per_page=50)
    start, end = parse_time(times[0]), parse_time(times[1])
    expected = [e for e in events if start <= parse_time(e["timestamp"]) < end]
    assert window == expected and window, (window, expected)
    # The host view at an event's time shows what the event says (the first and last versions).
    views = {}
    for time in (times[0], times[-1]):
        views[time] = view = hosts.view(ip, at_time=time)
        ports = {(s["port"], s["transport_protocol"]) for s in view["services"]}
        for event in (e for e in events if e["timestamp"] == time):
            if event["_event"] in ("service_observed", "service_removed"):
                service = event[event["_event"]]["id"]
                seen = (service["port"], service["transport_protocol"]) in ports
                assert seen == (event["_event"] == "service_observed"), (event, ports)
            if event["_event"] == "location_updated":
                assert event["location_updated"]["location"] == view["location"], event
    state["history"] = (ip, times, views)


def apply_patch(document, patch):
    """RFC 6902 add/remove/replace, applied in order to a copy of the document."""
    root = {"doc": copy.deepcopy(document)}
    for op in patch:
        parts = [p.replace("~1", "/").replace("~0", "~") for p in op["path"].split("/")[1:]]
        parent, key = root, "doc"
        for part in parts:
            parent = parent[key]
            key = (len(parent) if part == "-" else int(part)) if isinstance(parent, list) else part
        if isinstance(parent, list):
            if op["op"] == "remove":
                del parent[key]
            elif op["op"] == "add":
                parent.insert(key, op["value"])
            else:
                parent[key] = op["value"]
        elif op["op"] == "remove":
            del parent[key]
        else:
            parent[key] = op["value"]
    return root["doc"]


@check(
    "CensysHosts.view_host_diff between two times patches the host then into the host later",
)
def hosts_view_host_diff_times():
    ip, times, views = needs("history")
    older, newer = views[times[0]], views[times[-1]]
    diff = hosts.view_host_diff(ip, at_time=times[0], at_time_b=times[-1])
    assert diff["a"] == {"ip": ip, "last_updated_at": older["last_updated_at"]}, diff["a"]
    assert diff["b"] == {"ip": ip, "last_updated_at": newer["last_updated_at"]}, diff["b"]
    assert diff["patch"] and apply_patch(older, diff["patch"]) == newer


@check(
    "CensysHosts.view_host_diff between two hosts patches one into the other",
)
def hosts_view_host_diff_hosts():
    first = needs("host")  # the view of the first search hit
    second = needs("hits")[1]
    diff = hosts.view_host_diff(first["ip"], ip_b=second["ip"])
    assert (diff["a"]["ip"], diff["b"]["ip"]) == (first["ip"], second["ip"]), diff
    assert {"op": "replace", "path": "/ip", "value": second["ip"]} in diff["patch"], diff["patch"][:3]
    assert apply_patch(first, diff["patch"]) == hosts.view(second["ip"])


@check(
    "CensysCerts.get_hosts_by_cert lists the hosts whose services present the certificate",
)
def certs_hosts_by_cert():
    host, fingerprint = needs("named_host")
    found, links = certs.get_hosts_by_cert(fingerprint)
    assert links.get("next") == "", links
    ips = [entry["ip"] for entry in found]
    assert host["ip"] in ips and ips == sorted(ips, key=ip_key), ips
    # Each host listed presents it in its view (the first two; the named host's view is known).
    others = [e for e in found if e["ip"] != host["ip"]]
    for entry in [e for e in found if e["ip"] == host["ip"]] + others[:1]:
        view = host if entry["ip"] == host["ip"] else hosts.view(entry["ip"])
        presented = [s for s in view["services"] if s.get("certificate") == fingerprint]
        assert presented, (entry["ip"], fingerprint)
        assert entry["observed_at"] == max((s["observed_at"] for s in presented), key=parse_time), entry
        if PLATFORM_ONLY:
            # A Platform host search does not say when a host first presented it (edge README).
            assert "first_observed_at" not in entry, entry
        else:
            assert parse_time(entry["first_observed_at"]) <= parse_time(entry["observed_at"]), entry
    try:
        certs.get_hosts_by_cert("e" * 64)
        raise AssertionError("an unknown certificate had hosts")
    except CensysNotFoundException:
        pass


@check("CensysHosts errors arrive as the client's exceptions")
def hosts_errors():
    try:
        hosts.view("10.255.255.254")
        raise AssertionError("an unknown host was found")
    except CensysNotFoundException:
        pass
    try:
        hosts.search("services.port: [22 TO", per_page=5)()
        raise AssertionError("a broken query was accepted")
    except CensysSearchException as error:
        assert error.status_code == 422, error.status_code
    account = hosts.account()
    assert account["quota"]["allowance"] > 0 and account["login"], account
    # `censys account` prints last_login[:-7]: the value carries a `.ffffff` fraction.
    datetime.datetime.strptime(account["last_login"][:-7], "%Y-%m-%d %H:%M:%S")


@check("CensysCertificates.search pages through results with the default fields")
def certificates_search():
    metadata = certificates.metadata("*")
    count = metadata["count"]
    assert count > 0 and metadata["pages"] == -(-count // 100), metadata
    wanted = min(count, 150)
    results = list(certificates.search("*", max_records=wanted))
    assert len(results) == wanted, (len(results), wanted)
    fingerprints = [result["parsed.fingerprint_sha256"] for result in results]
    assert len(set(fingerprints)) == wanted, "a certificate appeared twice"
    for result in results:
        assert set(result) == {"parsed.fingerprint_sha256", "parsed.subject_dn", "parsed.issuer_dn"}, result
    nested = next(certificates.search("*", fields=["parsed.subject_dn", "parsed.names"], flatten=False))
    assert set(nested) <= {"parsed"} and "subject_dn" in nested["parsed"], nested
    state["certificates"] = results


@check("CensysCertificates.view returns the certificate a search result names")
def certificates_view():
    first = needs("certificates")[0]
    fingerprint = first["parsed.fingerprint_sha256"]
    document = certificates.view(fingerprint)
    assert document["parsed"]["fingerprint_sha256"] == fingerprint
    assert document["parsed"]["subject_dn"] == first["parsed.subject_dn"]
    assert isinstance(document["raw"], str) and document["raw"]
    assert certificates.view(fingerprint.upper()) == document
    state["certificate"] = document


@check("CensysCertificates.bulk returns every requested key, unknown ones as errors")
def certificates_bulk():
    known = [result["parsed.fingerprint_sha256"] for result in needs("certificates")[:3]]
    unknown = "0" * 64
    answer = certificates.bulk(known + [unknown])
    assert set(answer) == set(known + [unknown]), sorted(answer)
    assert answer[known[0]] == needs("certificate")
    for fingerprint in known:
        assert answer[fingerprint]["parsed"]["fingerprint_sha256"] == fingerprint
    assert answer[unknown]["error_type"] == "unknown" and answer[unknown]["status"] == "error", answer[unknown]
    many = [result["parsed.fingerprint_sha256"] for result in needs("certificates")[:60]]
    # More than 50: the client splits the request in two; both halves come back.
    assert set(certificates.bulk(many)) == set(many)


@check(
    "CensysCertificates.report breaks a field down consistently with search",
)
def certificates_report():
    field = "parsed.signature_algorithm.name"
    report = certificates.report("*", field, buckets=3)
    assert report["status"] == "ok"
    metadata = report["metadata"]
    assert metadata["count"] == certificates.metadata("*")["count"], metadata
    assert metadata["buckets"] == len(report["results"]) <= 3
    assert metadata["error_bound"] == 0
    listed = sum(bucket["doc_count"] for bucket in report["results"])
    assert listed + metadata["other_result_count"] == metadata["nonnull_count"], metadata
    key = report["results"][0]["key"]
    searched = certificates.metadata(f'{field}: "{key}"')
    assert searched["count"] == report["results"][0]["doc_count"], (searched, report["results"][0])


@check("CensysCertificates errors arrive as the client's exceptions")
def certificates_errors():
    try:
        certificates.view("f" * 64)
        raise AssertionError("an unknown certificate was found")
    except CensysNotFoundException:
        pass
    try:
        certificates.metadata("parsed.names: (")
        raise AssertionError("a broken query was accepted")
    except CensysSearchException as error:
        assert error.status_code == 400, error.status_code
    assert certificates.account()["quota"]["allowance"] > 0


@check("CensysHosts.bulk_view returns every requested host, unknown ones as errors")
def hosts_bulk_view():
    hits = needs("hits")[:3]
    unknown = "10.255.255.254"
    documents = hosts.bulk_view([hit["ip"] for hit in hits] + [unknown], max_workers=4)
    assert set(documents) == {hit["ip"] for hit in hits} | {unknown}, sorted(documents)
    assert documents[hits[0]["ip"]] == hosts.view(hits[0]["ip"])
    for hit in hits:
        assert summary(documents[hit["ip"]]["services"]) == summary(hit["services"]), hit["ip"]
    assert "error" in documents[unknown], documents[unknown]
    # With at_time, every document is the one view answers at that time.
    at = parse_time(needs("host")["last_updated_at"])
    dated = hosts.bulk_view([hits[0]["ip"]], at_time=at, max_workers=1)
    assert dated[hits[0]["ip"]] == hosts.view(hits[0]["ip"], at_time=at), dated


@check("CensysHosts.search(...).view_all views each host of the page")
def hosts_view_all():
    hits = hosts.search("", per_page=4).__call__()
    viewed = hosts.search("", per_page=4).view_all(max_workers=4)
    assert set(viewed) == {hit["ip"] for hit in hits}, (sorted(viewed), [hit["ip"] for hit in hits])
    for hit in hits:
        assert viewed[hit["ip"]]["ip"] == hit["ip"], viewed[hit["ip"]]
        assert summary(viewed[hit["ip"]]["services"]) == summary(hit["services"]), hit["ip"]


@check(
    "CensysData lists the series, views one, and views one of its results",
    platform_gap=lambda: data.get_series(),
)
def data_series():
    series = data.get_series()
    assert set(series) >= {"primary_series", "raw_series"}, sorted(series)
    listed = {**series["primary_series"], **series["raw_series"]}
    assert listed, series
    for series_id, entry in listed.items():
        assert entry["id"] == series_id and entry["name"] and "latest_result" in entry, entry
    series_id = sorted(series["raw_series"])[0]
    details = data.view_series(series_id)
    assert details["id"] == series_id, details
    for key in ("name", "description", "protocol", "subprotocol", "destination", "port", "results"):
        assert key in details, (key, sorted(details))
    assert isinstance(details["port"], int) and details["protocol"], details
    results = details["results"]["historical"]
    assert results, details["results"]
    latest = details["results"]["latest"]
    assert latest["id"] in {result["id"] for result in results}, latest
    result = data.view_result(series_id, latest["id"])
    assert result["id"] == latest["id"] and result["timestamp"] == latest["timestamp"], result
    assert isinstance(result["files"], dict) and result["files"], result
    for name, entry in result["files"].items():
        assert entry["download_path"] and entry["sha256_fingerprint"] and entry["file_type"], (name, entry)
    try:
        data.view_series("no-such-series")
        raise AssertionError("an unknown series was found")
    except CensysNotFoundException:
        pass
    try:
        data.view_result(series_id, "no-such-result")
        raise AssertionError("an unknown result was found")
    except CensysNotFoundException:
        pass
    assert data.account()["quota"]["allowance"] > 0


@check("CensysCerts leaves view, search, aggregate and metadata to CensysCertificates, asking nothing")
def certs_placeholders():
    # 2.1.9 keeps these as placeholders that raise before any request; bulk_view reports it per id.
    for call in (
        lambda: certs.view("a" * 64),
        lambda: certs.search("*", None, None, 1),
        lambda: certs.aggregate("*", "parsed.issuer.organization", None),
        certs.metadata,
    ):
        try:
            call()
            raise AssertionError("a placeholder answered")
        except NotImplementedError:
            pass
    assert "error" in certs.bulk_view(["a" * 64], max_workers=1)["a" * 64]


if EXPECTED_LOGIN or EXPECTED_ALLOWANCE:

    @check("account() of every client is the expected login and allowance")
    def own_account():
        for answer in (hosts.account(), certs.account(), certificates.account(), data.account()):
            quota = answer["quota"]
            if EXPECTED_LOGIN:
                assert answer["login"] == EXPECTED_LOGIN, answer
            if EXPECTED_ALLOWANCE:
                assert quota["allowance"] == int(EXPECTED_ALLOWANCE), answer
            assert 0 <= quota["used"] <= quota["allowance"], answer
            resets_at = parse_time(quota["resets_at"].replace(" ", "T"))
            assert resets_at > datetime.datetime.now(datetime.timezone.utc), answer
        assert hosts.quota() == certs.quota() == certificates.quota() == data.quota()


print(f"censys-python {censys_version} against {SERVICE_URL}: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)

/**
 * Queries people published for threat hunting, C2 tracking and asset discovery, each as
 * written (a source's JSON or markdown escapes undone, nothing else touched), with where it was
 * published and what it must find here: a host planted in planted.ts (its address, or a
 * website's domain for the v1 websites index), any host of the generated dataset
 * ("generated"), or nothing, and why the dataset cannot hold a match (`none`), or the refusal a
 * documented limit gives (`refused`).
 */

export type Expectation = string | { none: string } | { refused: RegExp };

export interface RealQuery {
  dialect: "v1" | "v2" | "cenql";
  /** The v1 index searched (v2 searches hosts; CenQL names its resources). */
  index?: "ipv4" | "certificates" | "websites";
  query: string;
  finds: Expectation;
}

export const REAL_QUERIES: readonly RealQuery[] = [
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Industrial Control System Protocols)
  {
    dialect: "v2",
    query: "services.service_name: {BACNET, CODESYS, EIP, FINS, FOX, IEC60870_5_104, S7, MODBUS}",
    finds: "198.51.100.10",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Prismview (Samsung Electronic Billboards))
  {
    dialect: "v2",
    query:
      'services.tls.certificates.leaf_data.subject.common_name: "Prismview" or services.http.response.headers.server: "Prismview Player"',
    finds: "198.51.100.11",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Gas Station Pump Controllers (ATGs))
  {
    dialect: "v2",
    query:
      '(same_service(port: 10001 and banner: "IN-TANK INVENTORY") or services.service_name: ATG) and services.truncated: false',
    finds: "198.51.100.12",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Electric Vehicle Chargers)
  {
    dialect: "v2",
    query:
      'same_service(http.response.headers.server: "gSOAP/2.8" and http.response.headers.content_length: 583)',
    finds: "198.51.100.13",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Carel PlantVisor)
  { dialect: "v2", query: 'services.http.response.html_title: "CAREL Pl@ntVisor"', finds: "198.51.100.10" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (C4 Max Vehicle GPS)
  { dialect: "v2", query: 'services.banner: "[1m[35mWelcome on console"', finds: "198.51.100.12" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (GaugeTech Electricity Meters)
  {
    dialect: "v2",
    query: 'services.http.response.headers.server: "EIG Embedded Web Server"',
    finds: "198.51.100.11",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (XZERES Wind Turbines)
  { dialect: "v2", query: 'services.http.response.html_title: "XZERES Wind"', finds: "198.51.100.13" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Nordex Wind Turbine Farms)
  {
    dialect: "v2",
    query:
      'services.http.response.html_title: "Nordex Control" or services.tls.certificates.leaf_data.issuer.domain_component: "NORDEX-AG"',
    finds: "198.51.100.14",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Saferoads VMS Signs)
  {
    dialect: "v2",
    query: 'services.software: (vendor: "Saferoads" and product: "VMS")',
    finds: "198.51.100.14",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Roombas)
  {
    dialect: "v2",
    query: 'services.tls.certificates.leaf_data.issuer.common_name: "Roomba CA"',
    finds: "198.51.100.15",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Mein Automowers)
  {
    dialect: "v2",
    query: 'services.http.response.headers.Www_Authenticate: `Basic realm= "Mein Automower (Robonect Hx+)"`',
    finds: "198.51.100.15",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (WinAQMS Environmental Monitor)
  {
    dialect: "v2",
    query: 'services.banner: "WinAQMS Data Server" and services.truncated: false',
    finds: "198.51.100.16",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Emerson Site Supervisor)
  {
    dialect: "v2",
    query: 'services.http.response.html_title: "Emerson Site Supervisor"',
    finds: "198.51.100.16",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Brightsign Digital Sign)
  { dialect: "v2", query: 'services.http.response.html_title: "\'BrightSign&reg;"', finds: "198.51.100.17" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Elnet Power Meters)
  {
    dialect: "v2",
    query:
      'same_service(services.http.response.headers.Server="CAL1.0" and services.http.response.status_code: 200)',
    finds: "198.51.100.17",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Nethix Wireless Controller)
  {
    dialect: "v2",
    query: 'services.http.response.headers.set_cookie: "NethixSession"',
    finds: "198.51.100.18",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Compromised Mikrotik Router)
  {
    dialect: "v2",
    query: 'services.service_name: MIKROTIK_BW and services.pptp.hostname: "HACKED"',
    finds: "198.51.100.18",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Cobalt Strike Servers)
  {
    dialect: "v2",
    query:
      'services.certificate: {\n    "64257fc0fac31c01a5ccd816c73ea86e639260da1604d04db869bb603c2886e6",\n    "87f2085c32b6a2cc709b365f55873e207a9caa10bffecf2fd16d3cf9d94d390c"\n}\nor services.tls.certificates.leaf_data.issuer.common_name: "Major Cobalt Strike"\nor services.tls.certificates.leaf_data.subject.common_name: "Major Cobalt Strike"',
    finds: "198.51.100.20",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Metasploit Servers)
  {
    dialect: "v2",
    query:
      'services.http.response.html_title: "Metasploit" and (\n    services.tls.certificates.leaf_data.subject.organization: "Rapid7"\n    or services.tls.certificates.leaf_data.subject.common_name: "MetasploitSelfSignedCA"\n)\nor services.jarm.fingerprint: {\n    "07d14d16d21d21d00042d43d000000aa99ce74e2c6d013c745aa52b5cc042d",\n    "07d14d16d21d21d07c42d43d000000f50d155305214cf247147c43c0f1a823"\n}',
    finds: "198.51.100.21",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Nessus Scanner Servers)
  {
    dialect: "v2",
    query:
      'services.http.response.headers.server: "NessusWWW"\nor services.tls.certificates.leaf_data.subject.organizational_unit: "Nessus Server"',
    finds: "198.51.100.22",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (NTOP Network Analyzers)
  {
    dialect: "v2",
    query:
      'services.http.response.html_title: "Welcome to ntopng"\nor same_service(\n    services.http.response.html_title: "Global Traffic Statistics"\n    and services.http.response.headers.server: "ntop/*"\n)',
    finds: "198.51.100.22",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Merlin C2)
  {
    dialect: "v2",
    query: 'services.jarm.fingerprint: "29d21b20d29d29d21c41d21b21b41d494e0df9532e75299f15ba73156cee38"',
    finds: "198.51.100.23",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Mythic C2)
  {
    dialect: "v2",
    query: 'same_service(port: 7443 and tls.certificates.leaf_data.subject.organization: "Mythic")',
    finds: "198.51.100.24",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Deimos C2)
  {
    dialect: "v2",
    query: 'services.jarm.fingerprint: "00000000000000000041d00000041d9535d5979f591ae8e547c5e5743e5b64"',
    finds: "198.51.100.25",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Covenant C2)
  {
    dialect: "v2",
    query:
      'same_service(\n    http.response.body: {"Blazor", "covenant.css"}\n    and tls.certificates.leaf_data.issuer.common_name: "Covenant"\n)',
    finds: "198.51.100.26",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (PoshC2)
  {
    dialect: "v2",
    query:
      'same_service(\n    services.tls.certificates.leaf_data.subject.common_name="P18055077" and\n    services.tls.certificates.leaf_data.subject.province="Minnesota" and\n    services.tls.certificates.leaf_data.subject.locality="Minnetonka" and\n    services.tls.certificates.leaf_data.subject.organization="Pajfds" and\n    services.tls.certificates.leaf_data.subject.organizational_unit="Jethpro"\n)',
    finds: "198.51.100.27",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Sliver C2)
  {
    dialect: "v2",
    query:
      "same_service(\n    services.tls.certificates.leaf_data.pubkey_bit_size: 2048 and\n    services.tls.certificates.leaf_data.subject.organization: /(ACME|Partners|Tech|Cloud|Synergy|Test|Debug)? ?(co|llc|inc|corp|ltd)?/ and\n    services.jarm.fingerprint: 3fd21b20d00000021c43d21b21b43d41226dd5dfc615dd4a96265559485910 and\n    services.tls.certificates.leaf_data.subject.country: US and\n    services.tls.certificates.leaf_data.subject.postal_code: /<1001-9999>/\n)",
    finds: "198.51.100.28",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (EvilGinx2)
  {
    dialect: "v2",
    query: 'services.jarm.fingerprint: "20d14d20d21d20d20c20d14d20d20daddf8a68a1444c74b6dbe09910a511e6"',
    finds: "198.51.100.29",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Brute Ratel C4)
  {
    dialect: "v2",
    query: 'services.http.response.body_hash="sha1:1a279f5df4103743b823ec2a6a08436fdf63fe30"',
    finds: "198.51.100.30",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Empire C2)
  {
    dialect: "v2",
    query:
      'same_service(\n    services.http.response.body_hash: {"sha1:bc517bf173440dad15b99a051389fadc366d5df2", "sha1:dcb32e6256459d3660fdc90e4c79e95a921841cc"}\n    and services.http.response.headers.expires: 0\n    and services.http.response.headers.cache_control: "*"\n)',
    finds: "198.51.100.31",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Raccoon Stealer V2 (RecordBreaker C2))
  {
    dialect: "v2",
    query:
      'services.banner_hashes: "sha256:7987d0c39c4839572ab88c6d82da01395f74e0c31f12d94c58d0e1bed0b0c75c"',
    finds: "198.51.100.32",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (NimPlant C2)
  {
    dialect: "v2",
    query:
      'services.http.response.headers.Server: "NimPlant C2 Server" or services.http.response.body_hashes: "sha256:636d68bd1bc19d763de95d0a6406f4f77953f9973389857353ac445e2b6fff87"',
    finds: "198.51.100.33",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (RedGuard)
  {
    dialect: "v2",
    query:
      'services.tls.certificates.leaf_data.subject_dn: "C=CN, L=HangZhou, O=Alibaba (China) Technology Co.\\\\, Ltd., CN=\\*.aliyun.com"',
    finds: "198.51.100.34",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (AsyncRAT)
  {
    dialect: "v2",
    query: 'services.tls.certificates.leaf_data.subject.common_name: "AsyncRAT Server"',
    finds: "198.51.100.35",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (BitRAT)
  {
    dialect: "v2",
    query: 'services.tls.certificates.leaf_data.subject.common_name: "BitRAT"',
    finds: "198.51.100.35",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (OrcusRAT)
  {
    dialect: "v2",
    query:
      'services.tls.certificates.leaf_data.subject.common_name: {"Orcus Server", "OrcusServerCertificate"}',
    finds: "198.51.100.35",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (QuasarRAT)
  {
    dialect: "v2",
    query: 'services.tls.certificates.leaf_data.subject.common_name: {"Anony96", "Quasar Server CA"}',
    finds: "198.51.100.35",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (NanoCore)
  {
    dialect: "v2",
    query: 'services.tls.certificates.leaf_data.subject.common_name: "unk"',
    finds: "198.51.100.35",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (DcRat)
  {
    dialect: "v2",
    query: 'services.tls.certificates.leaf_data.subject.common_name: "DcRat Server"',
    finds: "198.51.100.35",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Deimos C2)
  {
    dialect: "v2",
    query:
      'same_service((services.http.response.html_title="Deimos C2" or services.tls.certificates.leaf_data.subject.organization="Acme Co") and services.port: 8443)',
    finds: "198.51.100.25",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Posh C2)
  {
    dialect: "v2",
    query:
      'services.tls.certificates.leaf_data.subject_dn: "C=US, ST=Minnesota, L=Minnetonka, O=Pajfds, OU=Jethpro, CN=P18055077"',
    finds: "198.51.100.27",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (IcedID Banking Trojan)
  {
    dialect: "v2",
    query:
      'services.tls.certificates.leaf_data.subject_dn: "CN=localhost, C=AU, ST=Some-State, O=Internet Widgits Pty Ltd"',
    finds: "198.51.100.36",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Gozi Malware)
  {
    dialect: "v2",
    query: 'services.tls.certificates.leaf_data.issuer_dn: "C=XX, ST=1, L=1, O=1, OU=1, CN=\\*"',
    finds: "198.51.100.36",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Pupy RAT C2)
  {
    dialect: "v2",
    query:
      'same_service(services.http.response.headers.Etag="\\"aa3939fc357723135870d5036b12a67097b03309\\"" and services.http.response.headers.Server="nginx/1.13.8") or same_service(services.tls.certificates.leaf_data.issuer.organization:/[a-zA-Z]{10}/ and  services.tls.certificates.leaf_data.subject.organization:/[a-zA-Z]{10}/ and services.tls.certificates.leaf_data.subject.organizational_unit="CONTROL")',
    finds: { refused: /too long/ },
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Responder Server)
  {
    dialect: "v2",
    query:
      'services.banner="HTTP/1.1 401 Unauthorized\\r\\nServer: Microsoft-IIS/7.5\\r\\nDate:  <REDACTED>\\r\\nContent-Type: text/html\\r\\nWWW-Authenticate: NTLM\\r\\nContent-Length: 0\\r\\n"',
    finds: "198.51.100.37",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Titan Stealer C2)
  { dialect: "v2", query: 'services.http.response.body: "Titan Stealer"', finds: "198.51.100.38" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Open Directory Listing Host with Suspicious File Names in their Contents)
  {
    dialect: "v2",
    query:
      'same_service(\n    (services.http.response.html_title:"Index of /" or services.http.response.html_title:"Directory Listing for /")\n    and services.http.response.body: /.*?(cve|metasploit|cobaltstrike|sliver|covenant|brc4|brute-ratel|commander-runme|bruteratel|ps2exe|(badger|shellcode|sc|beacon|artifact|payload|teamviewer|anydesk|mimikatz|cs|rclone)\\.(exe|ps1|vbs|bin|nupkg)).*/\n)',
    finds: "198.51.100.39",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Splunk)
  { dialect: "v2", query: 'services.software.product: "Splunk"', finds: "198.51.100.38" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Exposed CouchDB Servers)
  { dialect: "v2", query: 'services.http.response.body: \'"couchdb": "Welcome"\'', finds: "198.51.100.40" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (cAdvisor Dashboards)
  {
    dialect: "v2",
    query:
      'same_service(services.http.response.html_title=`cAdvisor - /` and services.http.response.status_code=200 and services.http.request.uri="*/containers/")',
    finds: "198.51.100.41",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (HashiCorp Consul Dashboards)
  {
    dialect: "v2",
    query:
      'same_service(services.http.response.html_title=`Consul by HashiCorp` and services.http.request.uri: "*/ui/")',
    finds: "198.51.100.41",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Netdata Dashboards)
  {
    dialect: "v2",
    query:
      'same_service(services.http.response.headers.Server="Netdata Embedded HTTP*" and services.http.response.html_title="netdata dashboard")',
    finds: "198.51.100.42",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Rancher Dashboards)
  {
    dialect: "v2",
    query:
      'same_service(services.http.response.headers.unknown.name: "X-Rancher-Version" and services.http.response.html_title: "Loading&hellip;")',
    finds: "198.51.100.42",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Traefik Dashboards)
  {
    dialect: "v2",
    query:
      'same_service(services.http.request.uri: "*/dashboard/" and services.http.response.html_title: "Traefik")',
    finds: "198.51.100.43",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Weave Scope)
  {
    dialect: "v2",
    query:
      'same_service(services.http.response.html_title: "Weave Scope" and services.http.response.body="*WEAVEWORKS_CSRF*")',
    finds: "198.51.100.43",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Coolify)
  {
    dialect: "v2",
    query: 'services: (port: 8000 and services.http.response.html_title: "Coolify")',
    finds: "198.51.100.44",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Counter-Strike Gameservers)
  {
    dialect: "v2",
    query: 'same_service(banner: "Counter-Strike" and service_name: VALVE)',
    finds: "198.51.100.45",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (FiveM)
  {
    dialect: "v2",
    query:
      'services: (port: 30120 and http.response.headers: (key: "Location" and value.headers: "https://cfx.re/join/*"))',
    finds: "198.51.100.45",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Minecraft Servers)
  { dialect: "v2", query: 'services.service_name: "MINECRAFT"', finds: "198.51.100.45" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Plex Media Server)
  { dialect: "v2", query: 'services.software.vendor: "Plex"', finds: "198.51.100.46" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Jellyfin Media Server)
  { dialect: "v2", query: 'services.software.vendor: "Jellyfin"', finds: "198.51.100.46" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (MythWeb)
  { dialect: "v2", query: 'services.http.request.uri: "mythweb"', finds: "198.51.100.46" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Hosts emitting GNSS payloads)
  { dialect: "v2", query: 'services.banner: "$GPRMC"', finds: "198.51.100.47" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Directory Listing)
  { dialect: "v2", query: 'services.http.response.html_title: "Index of /"', finds: "198.51.100.39" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Swagger UI)
  { dialect: "v2", query: 'services.http.response.html_title: "Swagger UI - "', finds: "198.51.100.47" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Mongo Express Admin Interface)
  {
    dialect: "v2",
    query: 'services.http.response.html_title: "Home - Mongo Express"',
    finds: "198.51.100.48",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (shell2http)
  { dialect: "v2", query: 'services.http.response.html_title: "shell2http"', finds: "198.51.100.48" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Busybox Shells)
  {
    dialect: "v2",
    query:
      "same_service(services.banner: \"Enter 'help' for a list of built-in commands\" and services.service_name: TELNET) and services.truncated: false",
    finds: "198.51.100.49",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Unauthenticated Redis Servers)
  { dialect: "v2", query: 'services.redis.ping_response: "PONG"', finds: "198.51.100.50" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Misconfigured Kubernetes Installations)
  { dialect: "v2", query: "services.kubernetes.pod_names: *", finds: "198.51.100.50" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Misconfigured WordPress)
  {
    dialect: "v2",
    query: 'services.http.response.body: "The wp-config.php creation script uses this file"',
    finds: "198.51.100.51",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Unconfigured AdGuard)
  {
    dialect: "v2",
    query:
      'same_service(services.http.response.html_title: "Setup AdGuard Home" and services.http.request.uri="*/install.html")',
    finds: "198.51.100.51",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Prometheus Node Exporters)
  {
    dialect: "v2",
    query:
      'same_service(services.http.response.html_title: "node exporter" and services.http.response.body: "/metrics")',
    finds: "198.51.100.52",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (VictoriaMetrics Agent)
  { dialect: "v2", query: 'services.http.response.body: "<h2>vmagent</h2>"', finds: "198.51.100.52" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (SonarQube)
  {
    dialect: "v2",
    query:
      'same_service(http.response.html_title: "SonarQube" and http.response.status_code: 200 and http.response.protocol: "HTTP/1.1")',
    finds: "198.51.100.53",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (IPv6 Hosts)
  {
    dialect: "v2",
    query: 'ip:"2001::/3"',
    finds: { none: "the dataset holds IPv4 hosts only; an IPv6 block matches none" },
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Honeypots Hosts)
  { dialect: "v2", query: "services.truncated: true", finds: "198.51.100.54" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (North Korean Hosts)
  { dialect: "v2", query: 'location.country: "North Korea"', finds: "198.51.100.55" },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Hosts that identify as US government or military)
  {
    dialect: "v2",
    query: "dns.names: *.gov or dns.names: *.mil or name: *.gov or name: *.mil",
    finds: "198.51.100.56",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Services Listening on 53 that are not DNS)
  {
    dialect: "v2",
    query: "same_service(services.port: 53 and not services.service_name: DNS) and services.truncated: false",
    finds: "198.51.100.54",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Non-Standard Services Listening on Common Ports)
  {
    dialect: "v2",
    query:
      "same_service(services.port: {21, 22, 80} and not services.service_name: {HTTP, SSH, FTP, UNKNOWN}) and services.truncated: false",
    finds: "198.51.100.54",
  },
  // github.com/thehappydinoa/awesome-censys-queries queries.json@56ae5ce (Services Listening on Port 22 that are not SSH)
  {
    dialect: "v2",
    query:
      'same_service(services.port: 22 and not services.service_name: {SSH} and not services.banner: {"Connection refused", "SSH-", "Exceeded MaxStartups", "Too many users", "Connection closed by server"}) and services.truncated: false',
    finds: "198.51.100.54",
  },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id ipv4)
  { dialect: "v2", query: "ip: 1.1.1.1", finds: "1.1.1.1" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id ipv4-subnet)
  { dialect: "v2", query: "ip: 1.1.1.0/24", finds: "1.1.1.1" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id ipv4-range)
  { dialect: "v2", query: "ip: [1.1.1.0 to 1.1.1.255]", finds: "1.1.1.1" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id ipv6)
  { dialect: "v2", query: "ip: 2001:4860:4860::8888", finds: { none: "the dataset holds IPv4 hosts only" } },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id asn)
  { dialect: "v2", query: "autonomous_system.asn: 15169", finds: "8.8.8.8" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id asn-name)
  { dialect: "v2", query: "autonomous_system.name: Cloudflare", finds: "1.1.1.1" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id city)
  { dialect: "v2", query: "location.city: Moscow", finds: "198.51.100.60" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id country)
  { dialect: "v2", query: "location.country: Russia", finds: "198.51.100.60" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id state)
  { dialect: "v2", query: "location.province: Michigan", finds: "198.51.100.61" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id state-city)
  { dialect: "v2", query: "location.province: Michigan and location.city: Detroit", finds: "198.51.100.61" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id service-name)
  { dialect: "v2", query: "services.service_name: SSH", finds: "generated" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id service-port)
  { dialect: "v2", query: "services.port: 22", finds: "generated" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id software-product)
  { dialect: "v2", query: "services.software.product: CrushFTP", finds: "198.51.100.62" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id software-product-version)
  { dialect: "v2", query: "services.software: (product: OpenSSH and version: 7.4)", finds: "198.51.100.62" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id software-vendor)
  { dialect: "v2", query: "services.software.vendor: Plex", finds: "198.51.100.46" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id software-product-country)
  {
    dialect: "v2",
    query: "location.country: Russia and services.software.product: gSOAP",
    finds: "198.51.100.60",
  },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id os)
  { dialect: "v2", query: "operating_system.product: Windows", finds: "198.51.100.63" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id html-title)
  { dialect: "v2", query: 'services.http.response.html_title: "Welcome to nginx!"', finds: "198.51.100.64" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id html-title-regex)
  { dialect: "v2", query: "services.http.response.html_title: /Welcome to nginx!/", finds: "198.51.100.64" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id http-body-hash)
  {
    dialect: "v2",
    query: 'services.http.response.body_hash: "sha1:75710e20f9c5609e3325dd9805d690a3647f1af0"',
    finds: "198.51.100.64",
  },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id http-status)
  { dialect: "v2", query: "services.http.response.status_code: 200", finds: "generated" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id http-headers)
  {
    dialect: "v2",
    query: "services.http.response.headers: (name: Server and value: nginx)",
    finds: "198.51.100.64",
  },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id software-product-html-title)
  {
    dialect: "v2",
    query: 'services: (software.product: nginx and http.response.html_title: "Welcome to nginx!")',
    finds: "198.51.100.64",
  },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id subject-dn)
  {
    dialect: "v2",
    query: 'services.tls.certificates.leaf_data.subject_dn: "CN=localhost"',
    finds: "198.51.100.36",
  },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id subject-cn)
  {
    dialect: "v2",
    query: 'services.tls.certificates.leaf_data.subject.common_name: "localhost"',
    finds: "198.51.100.36",
  },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id issuer-dn)
  {
    dialect: "v2",
    query: 'services.tls.certificates.leaf_data.issuer_dn: "CN=localhost"',
    finds: "198.51.100.36",
  },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id issuer-cn)
  {
    dialect: "v2",
    query: 'services.tls.certificates.leaf_data.issuer.common_name: "localhost"',
    finds: "198.51.100.36",
  },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id iot-label)
  { dialect: "v2", query: "labels: IoT", finds: "198.51.100.13" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id scada-label)
  { dialect: "v2", query: "labels: SCADA", finds: "198.51.100.10" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id c2-label)
  { dialect: "v2", query: "labels: C2", finds: "198.51.100.20" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id open-dir-label)
  { dialect: "v2", query: "labels: open-dir", finds: "198.51.100.39" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id honeypot-labels)
  { dialect: "v2", query: "labels: {tarpits, truncated}", finds: "198.51.100.54" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id open-dir-with-c2-label-without-honeypot-label)
  {
    dialect: "v2",
    query: "labels: open-dir and labels: C2 and not labels: {tarpits, truncated}",
    finds: "198.51.100.39",
  },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id cobalt-strike-servers)
  { dialect: "v2", query: "services.service_name: COBALT_STRIKE", finds: "198.51.100.20" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id havoc-c2-servers)
  { dialect: "v2", query: "services.software.product: Havoc", finds: "198.51.100.65" },
  // github.com/censys-workshop/censys-search-questions src/questions.json@206fd6b (id atg-servers)
  { dialect: "v2", query: "services.service_name: ATG", finds: "198.51.100.12" },
  // github.com/Censys-Research/censeye README.md@2801846
  {
    dialect: "v2",
    query:
      "services.ssh.server_host_key.fingerprint_sha256=531a33202a58e4437317f8086d1847a6e770b2017b34b6676a033e9dc30a319c",
    finds: "198.51.100.66",
  },
  // github.com/Censys-Research/censeye README.md@2801846
  { dialect: "v2", query: "labels=c2", finds: "198.51.100.20" },
  // github.com/Censys-Research/censeye README.md@2801846
  {
    dialect: "v2",
    query:
      'services.ssh.server_host_key.fingerprint_sha256="f95812cbb46f0a664a8f2200592369b105d17dfe8255054963aac4e2df53df51"',
    finds: "198.51.100.66",
  },
  // github.com/censys/censys-python docs/usage-cli.rst
  { dialect: "v2", query: 'services.http.response.html_title: "Dashboard"', finds: "198.51.100.48" },
  // github.com/censys/censys-python docs/usage-cli.rst
  { dialect: "v2", query: "services.service_name: ELASTICSEARCH", finds: "198.51.100.50" },
  // github.com/censys/censys-python docs/usage-cli.rst
  { dialect: "v2", query: "ip: 8.8.8.0/16", finds: "8.8.8.8" },
  // github.com/censys/censys-python examples/search/search_hosts.py
  { dialect: "v2", query: "not services.service_name: HTTP", finds: "generated" },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  {
    dialect: "v1",
    index: "ipv4",
    query: '80.http.get.body:"VeloCloud Network Orchestrator"',
    finds: "203.0.113.10",
  },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  {
    dialect: "v1",
    index: "ipv4",
    query: "80.http.get.body_sha256:ebaa382148c391357fa0976ccb8cf947a035e8be642190a4c9dff2c8a6ce1a0a",
    finds: "203.0.113.10",
  },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  {
    dialect: "v1",
    index: "ipv4",
    query:
      '80.http.get.body: "The following operations are supported. For a formal definition, please review the Service XSD." AND "Teloip Orchestrator API"',
    finds: "203.0.113.11",
  },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  { dialect: "v1", index: "ipv4", query: '80.http.get.title:"FatPipe WARP"', finds: "203.0.113.12" },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  { dialect: "v1", index: "ipv4", query: '80.http.get.title: "Viptela vManage"', finds: "203.0.113.13" },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  {
    dialect: "v1",
    index: "ipv4",
    query:
      '(443.https.tls.certificate.parsed.fingerprint_sha256: "ad4c8962d687837c54a3430e869aadfc359db7fd07d9b0630ec2f355aa7b896a" AND 443.https.tls.certificate.parsed.issuer.common_name: "vmanage") AND protocols.raw: "443/https"',
    finds: "203.0.113.13",
  },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  {
    dialect: "v1",
    index: "ipv4",
    query: '80.http.get.title:"Riverbed AWS Appliance"',
    finds: "203.0.113.14",
  },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  { dialect: "v1", index: "ipv4", query: '80.http.get.body:"Riverbed SteelHead"', finds: "203.0.113.14" },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  {
    dialect: "v1",
    index: "ipv4",
    query:
      '"This SteelHead WAN optimization appliance is centrally managed as part of the AWS automation features within Riverbed SteelConnect."',
    finds: "203.0.113.14",
  },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  {
    dialect: "v1",
    index: "ipv4",
    query:
      "443.https.tls.certificate.parsed.fingerprint_sha256:8199d53cf2832a133344559b09987b1d4830e643497f5f01d3178beb379ee7a5",
    finds: "203.0.113.14",
  },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  { dialect: "v1", index: "ipv4", query: '80.http.get.title:"SD-WAN Center"', finds: "203.0.113.15" },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  {
    dialect: "v1",
    index: "ipv4",
    query: '443.https.tls.certificate.parsed.names:mycitrixdemo.net AND `"<span>NetScaler</span>"`',
    finds: "203.0.113.15",
  },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  {
    dialect: "v1",
    index: "ipv4",
    query: '443.https.tls.certificate.parsed.subject.common_name: "Silverpeak GMS"',
    finds: "203.0.113.16",
  },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  {
    dialect: "v1",
    index: "ipv4",
    query:
      '80.http.get.body: "By using this product, you agree to be bound by the terms of Silver Peak Systems Inc. " AND 443.https.tls.certificate.parsed.issuer.common_name: "silver-peak"',
    finds: "203.0.113.16",
  },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  {
    dialect: "v1",
    index: "ipv4",
    query: '443.https.tls.chain.parsed.issuer.organization:"CloudGenix Inc"',
    finds: {
      none: "host documents keep only the chain's fingerprints (the chain's certificates are in the certificates index)",
    },
  },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  { dialect: "v1", index: "ipv4", query: '80.http.get.title:("AWS" AND "Login")', finds: "203.0.113.17" },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  {
    dialect: "v1",
    index: "ipv4",
    query:
      '443.https.tls.certificate.parsed.issuer_dn:"C=US, ST=California, L=San Jose, O=Talari Networks, Inc., OU=Engineering, CN=Talari, emailAddress=support@talari.com"',
    finds: "203.0.113.18",
  },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  {
    dialect: "v1",
    index: "ipv4",
    query:
      "443.https.tls.certificate.parsed.subject_key_info.fingerprint_sha256: f52b521dc30c3be76b9458f211eafd89fe63519678ff085f1c5c5cd7279a755d",
    finds: "203.0.113.18",
  },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  {
    dialect: "v1",
    index: "ipv4",
    query: '80.http.get.body: "© 2017 Talari Networks"',
    finds: "203.0.113.18",
  },
  // github.com/sdnewhop/sdwannewhope docs/census.md@8e36c34
  { dialect: "v1", index: "ipv4", query: '80.http.get.title:"agile controller"', finds: "203.0.113.19" },
  // github.com/sdnewhop/grinder queries/aisec_aifinger_all.json@7432531
  { dialect: "v1", index: "ipv4", query: '8080.http.get.title: "FATE Board"', finds: "203.0.113.20" },
  // github.com/sdnewhop/grinder queries/aisec_aifinger_all.json@7432531
  {
    dialect: "v1",
    index: "ipv4",
    query: '"FATE" AND 8080.http.get.headers.content_length: 2831',
    finds: "203.0.113.20",
  },
  // github.com/sdnewhop/grinder queries/aisec_aifinger_all.json@7432531
  {
    dialect: "v1",
    index: "ipv4",
    query: '443.https.get.title:"Megarac SP" AND 443.https.get.headers.server:"lighttpd"',
    finds: "203.0.113.21",
  },
  // github.com/sdnewhop/grinder queries/aisec_aifinger_all.json@7432531
  {
    dialect: "v1",
    index: "ipv4",
    query:
      '((("<title>Megarac SP</title>") AND protocols: "443/https") AND protocols: "623/ipmi") AND 443.https.get.headers.server:"lighttpd"',
    finds: "203.0.113.21",
  },
  // github.com/sdnewhop/grinder queries/aisec_aifinger_all.json@7432531
  {
    dialect: "v1",
    index: "ipv4",
    query:
      "8888.http.get.headers.server: TornadoServer OR 80.http.get.headers.server: TornadoServer OR 443.http.get.headers.server: TornadoServer OR 8080.http.get.headers.server: TornadoServer",
    finds: "203.0.113.20",
  },
  // github.com/sdnewhop/grinder queries/aisec_aifinger_all.json@7432531
  {
    dialect: "v1",
    index: "ipv4",
    query: 'apache AND (443.https.get.body: "mxnet" OR 80.http.get.body: "mxnet")',
    finds: "203.0.113.22",
  },
  // github.com/sdnewhop/grinder queries/aisec_aifinger_all.json@7432531
  { dialect: "v1", index: "ipv4", query: '"ng-app="flinkApp""', finds: "203.0.113.22" },
  // github.com/sdnewhop/grinder queries/servers.json@7432531
  {
    dialect: "v1",
    index: "ipv4",
    query:
      '(443.https.get.status_code: 200 or 80.http.get.status_code: 200) and (80.http.get.headers.server: "Apache/2.4.41 (Unix)" or 443.https.get.headers.server: "Apache/2.4.41 (Unix)")',
    finds: "203.0.113.22",
  },
  // github.com/sdnewhop/grinder queries/aisec_aifinger_all.json@7432531
  {
    dialect: "v1",
    index: "ipv4",
    query: '80.http.get.title: "Kubeflow Central Dashboard"',
    finds: "203.0.113.23",
  },
  // github.com/sdnewhop/grinder queries/f5bigip.json@7432531
  {
    dialect: "v1",
    index: "ipv4",
    query: "443.https.get.body_sha256:5d78eb6fa93b995f9a39f90b6fb32f016e80dbcda8eb71a17994678692585ee5",
    finds: "203.0.113.23",
  },
  // github.com/censys/censys-python docs/usage-v1.rst@a80b6a0
  {
    dialect: "v1",
    index: "ipv4",
    query: "443.https.get.headers.server: Apache AND location.country: Japan",
    finds: "203.0.113.24",
  },
  // github.com/censys/censys-python docs/usage-v1.rst@a80b6a0 (websites report)
  {
    dialect: "v1",
    index: "websites",
    query: ' "welcome to" AND tags.raw: "http" ',
    finds: "welcome.example",
  },
  // github.com/censys/censys-python README.md@d0bcaab
  {
    dialect: "v1",
    index: "certificates",
    query: "github.com and valid_nss: true",
    finds: { none: "only Node's root certificates are NSS-trusted here, and none names github.com" },
  },
  // github.com/axelarator/blog src/content/blog/close-those-ports-exploring-splashtop-rmm-and-relays.md@3073712
  { dialect: "cenql", query: "(splashtop) and host.ip: *", finds: "203.0.113.30" },
  // github.com/axelarator/blog src/content/blog/close-those-ports-exploring-splashtop-rmm-and-relays.md@3073712
  {
    dialect: "cenql",
    query: '((splashtop) and host.ip: *) and host.services.port = "6783"',
    finds: "203.0.113.30",
  },
  // github.com/axelarator/blog src/content/blog/close-those-ports-exploring-splashtop-rmm-and-relays.md@3073712
  {
    dialect: "cenql",
    query:
      'host.services.banner_hash_sha256 = "5df2006c56654452aa889b55bb2b002c5326352c5d619cab3b05485a1eaef41e" and host.services.port:6783',
    finds: "203.0.113.30",
  },
  // github.com/axelarator/blog src/content/blog/close-those-ports-exploring-splashtop-rmm-and-relays.md@3073712
  {
    dialect: "cenql",
    query: '(host.services.cert.parsed.issuer.common_name = "Splashtop Inc. Self CA") and host.ip:*',
    finds: "203.0.113.30",
  },
  // github.com/axelarator/blog src/content/blog/close-those-ports-exploring-splashtop-rmm-and-relays.md@3073712
  {
    dialect: "cenql",
    query:
      '(((splashtop) and host.ip: *) and host.services.port = "6783") and host.services.cert.names = "SRS"',
    finds: "203.0.113.30",
  },
  // github.com/axelarator/blog src/content/blog/close-those-ports-exploring-splashtop-rmm-and-relays.md@3073712
  {
    dialect: "cenql",
    query:
      '(host.services.cert.parsed.issuer.common_name = "Splashtop Inc. Self CA" and host.services.banner_hash_sha256 = "5df2006c56654452aa889b55bb2b002c5326352c5d619cab3b05485a1eaef41e") and host.ip:*',
    finds: "203.0.113.30",
  },
  // github.com/axelarator/blog src/content/blog/close-those-ports-exploring-splashtop-rmm-and-relays.md@3073712
  {
    dialect: "cenql",
    query:
      '(host.services.cert.names = "SRS" or host.services.cert.names = "*.relay.splashtop.com") and splashtop',
    finds: "203.0.113.31",
  },
  // github.com/axelarator/blog src/content/blog/close-those-ports-exploring-splashtop-rmm-and-relays.md@3073712
  {
    dialect: "cenql",
    query:
      '((splashtop) and host.ip: *) and (host.services.threats.name = "Suspicious Directory" or web.threats.name = "Suspicious Directory")',
    finds: "203.0.113.32",
  },
  // github.com/axelarator/blog src/content/blog/close-those-ports-exploring-splashtop-rmm-and-relays.md@3073712
  {
    dialect: "cenql",
    query:
      'host.services.ssh.server_host_key.fingerprint_sha256 = "2a4c3084ab5554e81111fd48af142e2fafc96611f339cec09e8dc7dd930044fc"',
    finds: "203.0.113.31",
  },
  // github.com/axelarator/blog src/content/blog/cobalt-strike-beacon-analysis.md@3073712 (its platform.censys.io search link, decoded)
  {
    dialect: "cenql",
    query:
      '(host.services.endpoints.cobalt_strike.x64.user_agent="Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; WOW64; Trident/5.0; BOIE9;ENCA)" OR host.services.endpoints.cobalt_strike.x86.user_agent="Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; WOW64; Trident/5.0; BOIE9;ENCA)") and host.ip: *',
    finds: "198.51.100.20",
  },
  // github.com/axelarator/blog src/content/blog/cobalt-strike-beacon-analysis.md@3073712 (its platform.censys.io search link, decoded)
  {
    dialect: "cenql",
    query:
      "host.services.endpoints.cobalt_strike.x64.watermark={987654321,391144938,1234567890,666666666,426352781,100000,  305419896,1359593325,388888888,666666,1,785920802,318104477,6,11111} OR host.services.endpoints.cobalt_strike.x86.watermark={987654321,391144938,1234567890,666666666,426352781,100000,  305419896,1359593325,388888888,666666,1,785920802,318104477,6,11111}",
    finds: "198.51.100.20",
  },
  // github.com/axelarator/blog src/content/blog/using-a-honeypot-to-capture-teamtnt-activity.md@3073712
  {
    dialect: "cenql",
    query:
      '(host.services.port: 2375 and host.services.software.product="docker") and not host.services.labels.value = "HONEYPOT"',
    finds: "203.0.113.33",
  },
  // github.com/axelarator/blog src/content/blog/we-have-packet-capture-at-home-pt-2.md@3073712 (its platform.censys.io report link, decoded)
  {
    dialect: "cenql",
    query: '(host.services.threats.name = "Sliver" or web.threats.name = "Sliver") and host.ip: *',
    finds: "198.51.100.28",
  },
  // github.com/censys/cencli docs/commands/SEARCH.md@0d78145
  { dialect: "cenql", query: "host.services: (protocol=SSH and not port: 22)", finds: "198.51.100.66" },
  // github.com/censys/cencli docs/commands/SEARCH.md@0d78145
  { dialect: "cenql", query: "host.services.protocol: 'HTTP'", finds: "generated" },
  // github.com/censys/cencli docs/commands/SEARCH.md@0d78145
  { dialect: "cenql", query: "host.services.port: 443", finds: "generated" },
  // github.com/censys/cencli docs/commands/AGGREGATE.md@0d78145
  { dialect: "cenql", query: "host.services.protocol=SSH", finds: "generated" },
  // github.com/censys/cencli docs/commands/AGGREGATE.md@0d78145
  { dialect: "cenql", query: "host.services.port=22", finds: "generated" },
  // github.com/Censys-Research/censeye-ng README.md@a7d3f35
  {
    dialect: "cenql",
    query:
      'host.services:(cert.parsed.issuer_dn="C=Earth, ST=Cyberspace, L=Somewhere, O=Chrome, OU=SSL-RSA, CN=051" and protocol="UNKNOWN")',
    finds: "203.0.113.34",
  },
  // github.com/Censys-Research/censeye-ng README.md@a7d3f35
  { dialect: "cenql", query: 'host.services.cert.parsed.issuer.locality="Carterton"', finds: "203.0.113.34" },
  // github.com/Censys-Research/censeye-ng README.md@a7d3f35
  {
    dialect: "cenql",
    query:
      'host.services:(endpoints.http.headers.key="ETag" and endpoints.http.headers.value="\\"1a-58f89dce770c0\\"")',
    finds: "203.0.113.34",
  },
  // github.com/Censys-Research/censeye-ng README.md@a7d3f35
  {
    dialect: "cenql",
    query:
      'host.services.endpoints:(http.protocol="HTTP/1.1" and http.status_code="200" and http.status_reason="OK")',
    finds: "generated",
  },
  // github.com/censys/censys-ai-skills skills/censys-cenql/references/cookbook.md@0f11c0c
  { dialect: "cenql", query: "host.services: (protocol=SSH and port: 22)", finds: "generated" },
  // github.com/censys/censys-ai-skills skills/censys-cenql/references/cookbook.md@0f11c0c
  { dialect: "cenql", query: "host.ip: '198.51.100.0/24'", finds: "198.51.100.20" },
  // github.com/censys/censys-ai-skills skills/censys-cenql/references/cookbook.md@0f11c0c
  { dialect: "cenql", query: "host.autonomous_system.asn: 13335", finds: "1.1.1.1" },
  // github.com/censys/censys-ai-skills skills/censys-cenql/references/cookbook.md@0f11c0c
  { dialect: "cenql", query: "host.services.software.product: nginx", finds: "generated" },
  // github.com/censys/censys-ai-skills skills/censys-cenql/references/cookbook.md@0f11c0c
  {
    dialect: "cenql",
    query: "host.services: (protocol=SSH and not port: 22) and host.location.country: Germany",
    finds: "198.51.100.66",
  },
  // github.com/censys/censys-ai-skills skills/censys-cenql/references/cookbook.md@0f11c0c
  { dialect: "cenql", query: 'host.services.endpoints.http.body:"index-Bv1WZ4hk.js"', finds: "203.0.113.35" },
  // github.com/censys/censys-ai-skills skills/censys-cenql/references/cookbook.md@0f11c0c
  {
    dialect: "cenql",
    query: 'host.services.endpoints.http.html_title="Connection Manager"',
    finds: "203.0.113.35",
  },
  // github.com/censys/censys-ai-skills skills/censys-cenql/references/cookbook.md@0f11c0c
  {
    dialect: "cenql",
    query: "host.services.endpoints.cobalt_strike.x64.watermark=987654321",
    finds: "198.51.100.20",
  },
  // github.com/censys/censys-ai-skills skills/censys-cenql/SKILL.md@0f11c0c
  {
    dialect: "cenql",
    query: "host.services.protocol=RDP and host.services.port=7070",
    finds: "203.0.113.36",
  },
  // github.com/censys/censys-ai-skills skills/censys-cenql/SKILL.md@0f11c0c
  {
    dialect: "cenql",
    query: "host.services: (protocol=RDP and port=7070)",
    finds: { none: "the query's own example of a service no host runs: RDP on 7070" },
  },
  // github.com/censys/censys-ai-skills skills/censys-cenql/SKILL.md@0f11c0c
  {
    dialect: "cenql",
    query:
      'host.services: (protocol="RDP" and port: 3389) and host.services: (software.product: "AnyDesk" and port: 7070)',
    finds: "203.0.113.36",
  },
  // github.com/censys/censys-ai-skills skills/censys-cenql/SKILL.md@0f11c0c
  {
    dialect: "cenql",
    query:
      'host.services: (protocol="RDP" and port: 3389) and host.services: (software.product: "AnyDesk" and port: 7070) and host.service_count=2',
    finds: "203.0.113.36",
  },
  // https://docs.censys.com/docs/censys-query-language
  { dialect: "cenql", query: 'host.location.city="Ann Arbor"', finds: "203.0.113.37" },
];

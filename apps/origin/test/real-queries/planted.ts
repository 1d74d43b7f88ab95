import type { PlantedHost } from "../support/plant";
import { host, http, service, software, threat, tlsListener } from "./build";

/**
 * The hosts the real-queries test plants beside the generated dataset: for each published
 * query the generated hosts cannot be relied on to answer, a host that is what the query hunts
 * (queries.ts names the host each query must find). Values a query names exactly (a JARM, a
 * certificate fingerprint, a body hash) are the published ones.
 */

const CS_JARM = "07d14d16d21d21d07c42d41d00041d24a458a375eef0c576d23a7bab9a9fb1";
const CS_UA = "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; WOW64; Trident/5.0; BOIE9;ENCA)";
const beacon = (arch: string) => ({
  watermark: 987654321,
  sleep_time: 60000,
  jitter: 0,
  user_agent: CS_UA,
  public_key: `MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ${arch}AQAB`,
});

const ip = (n: number) => `198.51.100.${n}`;
const ip3 = (n: number) => `203.0.113.${n}`;

const HOSTS: PlantedHost[] = [
  // Industrial control: a Modbus PLC beside its Carel supervisor.
  {
    document: host(
      ip(10),
      [service(502, "MODBUS"), http(ip(10), 80, { title: "CAREL Pl@ntVisor" })],
      {},
      { labels: ["scada"] },
    ),
  },
  {
    document: host(ip(11), [
      http(ip(11), 80, { server: "Prismview Player" }),
      http(ip(11), 8080, { server: "EIG Embedded Web Server" }),
    ]),
  },
  // A gas station's tank gauge, and a vehicle tracker's console.
  {
    document: host(ip(12), [
      service(9000, "UNKNOWN", { banner: "\u001b[1m\u001b[35mWelcome on console\u001b[0m" }, "banner"),
      service(10001, "ATG", { banner: "\nI20100\nNOV 27, 2026  10:00 AM\n\nIN-TANK INVENTORY\n" }),
    ]),
  },
  {
    document: host(
      ip(13),
      [
        http(ip(13), 80, { server: "gSOAP/2.8", body: "x".repeat(583) }),
        http(ip(13), 8080, { title: "XZERES Wind Turbine" }),
      ],
      {},
      { labels: ["iot"] },
    ),
  },
  {
    document: host(ip(14), [
      http(ip(14), 80, { title: "Nordex Control" }),
      http(ip(14), 8080, { software: [software("Saferoads", "VMS")] }),
    ]),
  },
  {
    document: host(ip(15), [
      http(ip(15), 80, {
        status: 401,
        headers: { "WWW-Authenticate": 'Basic realm= "Mein Automower (Robonect Hx+)"' },
      }),
      http(ip(15), 443, {
        tls: { subject: { common_name: ["Roomba"] }, issuer: { common_name: ["Roomba CA"] } },
      }),
    ]),
  },
  {
    document: host(ip(16), [
      http(ip(16), 80, { title: "Emerson Site Supervisor" }),
      service(3000, "UNKNOWN", { banner: "WinAQMS Data Server v2.1 ready" }, "banner"),
    ]),
  },
  {
    document: host(ip(17), [
      http(ip(17), 80, { title: "BrightSign&reg; Digital Signage" }),
      http(ip(17), 8080, { server: "CAL1.0" }),
    ]),
  },
  // A MikroTik router whose PPTP server was renamed by an intruder.
  {
    document: host(ip(18), [
      http(ip(18), 80, { headers: { "Set-Cookie": "NethixSession=8f2c; path=/" } }),
      service(1723, "PPTP", { pptp: { hostname: "HACKED", vendor: "MikroTik" } }),
      service(8291, "MIKROTIK_BW"),
    ]),
  },
  // Command and control.
  {
    document: host(
      ip(20),
      [
        http(ip(20), 443, {
          tls: {
            subject: {
              country: ["Earth"],
              province: ["Cyberspace"],
              locality: ["Somewhere"],
              organization: ["cobaltstrike"],
              organizational_unit: ["AdvancedPenTesting"],
              common_name: ["Major Cobalt Strike"],
            },
            fingerprint: "64257fc0fac31c01a5ccd816c73ea86e639260da1604d04db869bb603c2886e6",
            jarm: CS_JARM,
          },
          status: 404,
          extra: {
            labels: ["c2"],
            threats: [threat("Cobalt Strike")],
            cobalt_strike: { x86: beacon("x86"), x64: beacon("x64") },
          },
        }),
        service(50050, "COBALT_STRIKE"),
      ],
      {},
      { labels: ["c2"] },
    ),
  },
  {
    document: host(ip(21), [
      http(ip(21), 443, {
        title: "Metasploit",
        tls: {
          subject: { organization: ["Rapid7"], common_name: ["MetasploitSelfSignedCA"] },
          jarm: "07d14d16d21d21d00042d43d000000aa99ce74e2c6d013c745aa52b5cc042d",
        },
      }),
    ]),
  },
  {
    document: host(ip(22), [
      http(ip(22), 8834, { server: "NessusWWW" }),
      http(ip(22), 3000, { title: "Welcome to ntopng" }),
    ]),
  },
  {
    document: host(ip(23), [
      http(ip(23), 443, {
        tls: { jarm: "29d21b20d29d29d21c41d21b21b41d494e0df9532e75299f15ba73156cee38" },
        extra: { threats: [threat("Merlin")] },
      }),
    ]),
  },
  {
    document: host(ip(24), [
      http(ip(24), 7443, {
        title: "Mythic",
        tls: { subject: { organization: ["Mythic"], common_name: ["mythic"] } },
      }),
    ]),
  },
  {
    document: host(ip(25), [
      http(ip(25), 8443, {
        title: "Deimos C2",
        tls: {
          subject: { organization: ["Acme Co"], common_name: ["localhost"] },
          jarm: "00000000000000000041d00000041d9535d5979f591ae8e547c5e5743e5b64",
        },
      }),
    ]),
  },
  {
    document: host(ip(26), [
      http(ip(26), 7443, {
        title: "Covenant",
        body: '<link href="css/covenant.css" rel="stylesheet"><app>Loading Blazor...</app>',
        tls: { subject: { common_name: ["Covenant"] } },
      }),
    ]),
  },
  {
    document: host(ip(27), [
      http(ip(27), 443, {
        tls: {
          subject: {
            country: ["US"],
            province: ["Minnesota"],
            locality: ["Minnetonka"],
            organization: ["Pajfds"],
            organizational_unit: ["Jethpro"],
            common_name: ["P18055077"],
          },
        },
      }),
    ]),
  },
  {
    document: host(ip(28), [
      http(ip(28), 443, {
        tls: {
          subject: {
            country: ["US"],
            province: ["Oregon"],
            locality: ["Portland"],
            organization: ["Partners LLC"],
            postal_code: ["9723"],
            common_name: ["localhost"],
          },
          jarm: "3fd21b20d00000021c43d21b21b43d41226dd5dfc615dd4a96265559485910",
        },
        extra: { labels: ["c2"], threats: [threat("Sliver")] },
      }),
    ]),
    websites: ["sliver-staging.example"],
  },
  {
    document: host(ip(29), [
      http(ip(29), 443, { tls: { jarm: "20d14d20d21d20d20c20d14d20d20daddf8a68a1444c74b6dbe09910a511e6" } }),
    ]),
  },
  {
    document: host(ip(30), [
      http(ip(30), 443, { body: "<h1>It works!</h1>", sha1: "1a279f5df4103743b823ec2a6a08436fdf63fe30" }),
    ]),
  },
  {
    document: host(ip(31), [
      http(ip(31), 80, {
        status: 404,
        sha1: "bc517bf173440dad15b99a051389fadc366d5df2",
        headers: { Expires: "0", "Cache-Control": "no-cache, no-store, must-revalidate" },
      }),
    ]),
  },
  {
    document: host(ip(32), [
      service(
        80,
        "UNKNOWN",
        {
          banner: "raccoon",
          banner_hashes: ["sha256:7987d0c39c4839572ab88c6d82da01395f74e0c31f12d94c58d0e1bed0b0c75c"],
        },
        "banner",
      ),
    ]),
  },
  { document: host(ip(33), [http(ip(33), 80, { server: "NimPlant C2 Server", status: 404 })]) },
  {
    document: host(ip(34), [
      http(ip(34), 443, {
        tls: {
          subject: { country: ["CN"], locality: ["HangZhou"], common_name: ["*.aliyun.com"] },
          subject_dn: "C=CN, L=HangZhou, O=Alibaba (China) Technology Co.\\, Ltd., CN=*.aliyun.com",
        },
      }),
    ]),
  },
  // Remote-access trojans' TLS listeners, with their builders' default certificates.
  {
    document: host(ip(35), [
      tlsListener(6606, { subject: { common_name: ["AsyncRAT Server"] } }),
      tlsListener(1234, { subject: { common_name: ["BitRAT"] } }),
      tlsListener(10134, { subject: { common_name: ["Orcus Server"] } }),
      tlsListener(4782, { subject: { common_name: ["Quasar Server CA"] } }),
      tlsListener(54984, { subject: { common_name: ["unk"] } }),
      tlsListener(8848, { subject: { common_name: ["DcRat Server"] } }),
    ]),
  },
  {
    document: host(ip(36), [
      http(ip(36), 443, {
        tls: {
          subject: {
            common_name: ["localhost"],
            country: ["AU"],
            province: ["Some-State"],
            organization: ["Internet Widgits Pty Ltd"],
          },
          subject_dn: "CN=localhost, C=AU, ST=Some-State, O=Internet Widgits Pty Ltd",
          issuer_dn: "CN=localhost, C=AU, ST=Some-State, O=Internet Widgits Pty Ltd",
        },
      }),
      http(ip(36), 8443, {
        tls: {
          subject: { common_name: ["*"] },
          issuer: { country: ["XX"], province: ["1"], common_name: ["*"] },
          issuer_dn: "C=XX, ST=1, L=1, O=1, OU=1, CN=*",
        },
      }),
    ]),
  },
  {
    document: host(ip(37), [
      service(80, "HTTP", {
        banner:
          "HTTP/1.1 401 Unauthorized\r\nServer: Microsoft-IIS/7.5\r\nDate:  <REDACTED>\r\nContent-Type: text/html\r\nWWW-Authenticate: NTLM\r\nContent-Length: 0\r\n",
      }),
    ]),
  },
  {
    document: host(ip(38), [
      http(ip(38), 80, { body: "<html><body><h1>Titan Stealer</h1><form></form></body></html>" }),
      http(ip(38), 8000, { title: "Splunk", software: [software("Splunk", "Splunk")] }),
    ]),
  },
  // An open directory serving implants.
  {
    document: host(
      ip(39),
      [
        http(ip(39), 80, {
          title: "Index of /",
          body: '<h1>Index of /</h1><pre><a href="beacon.exe">beacon.exe</a>\n<a href="notes.txt">notes.txt</a></pre>',
          extra: { labels: ["open-dir"] },
        }),
      ],
      {},
      { labels: ["c2", "open-dir"] },
    ),
  },
  { document: host(ip(40), [http(ip(40), 5984, { body: '{"couchdb": "Welcome", "version": "3.3.2"}' })]) },
  {
    document: host(ip(41), [
      http(ip(41), 8080, { title: "cAdvisor - /", path: "/containers/" }),
      http(ip(41), 8500, { title: "Consul by HashiCorp", path: "/ui/" }),
    ]),
  },
  {
    document: host(ip(42), [
      http(ip(42), 19999, { title: "netdata dashboard", server: "Netdata Embedded HTTP Server v1.44.0" }),
      http(ip(42), 443, { title: "Loading&hellip;", headers: { "X-Rancher-Version": "v2.7.5" } }),
    ]),
  },
  {
    document: host(ip(43), [
      http(ip(43), 8080, { title: "Traefik", path: "/dashboard/" }),
      http(ip(43), 4040, {
        title: "Weave Scope",
        body: '<title>Weave Scope</title><script>window.WEAVEWORKS_CSRF_TOKEN="abc"</script>',
      }),
    ]),
  },
  { document: host(ip(44), [http(ip(44), 8000, { title: "Coolify" })]) },
  {
    document: host(ip(45), [
      service(27015, "VALVE", { banner: "Counter-Strike 2 dedicated server" }),
      http(ip(45), 30120, { status: 404, headers: { Location: "https://cfx.re/join/7xkq2a" } }),
      service(25565, "MINECRAFT"),
    ]),
  },
  {
    document: host(ip(46), [
      http(ip(46), 32400, { software: [software("Plex", "Plex Media Server")] }),
      http(ip(46), 8096, { software: [software("Jellyfin", "Jellyfin")] }),
      http(ip(46), 80, { path: "/mythweb/" }),
    ]),
  },
  {
    document: host(ip(47), [
      service(
        2101,
        "UNKNOWN",
        { banner: "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A" },
        "banner",
      ),
      http(ip(47), 8080, { title: "Swagger UI - Petstore" }),
    ]),
  },
  {
    document: host(ip(48), [
      http(ip(48), 8081, { title: "Home - Mongo Express" }),
      http(ip(48), 8082, { title: "shell2http" }),
      http(ip(48), 3000, { title: "Dashboard" }),
    ]),
  },
  {
    document: host(ip(49), [
      service(23, "TELNET", {
        banner:
          "\r\n\r\nBusyBox v1.31.1 built-in shell (ash)\r\nEnter 'help' for a list of built-in commands.\r\n\r\n# ",
      }),
    ]),
  },
  {
    document: host(ip(50), [
      service(6379, "REDIS", { redis: { ping_response: "PONG" } }),
      service(10250, "KUBERNETES", {
        kubernetes: { pod_names: ["coredns-5d78c9869d-8xkqv", "kube-proxy-7xk2p"] },
      }),
      service(9200, "ELASTICSEARCH"),
    ]),
  },
  {
    document: host(ip(51), [
      http(ip(51), 80, {
        body: "<p>The wp-config.php creation script uses this file during the installation.</p>",
      }),
      http(ip(51), 3000, { title: "Setup AdGuard Home", path: "/install.html" }),
    ]),
  },
  {
    document: host(ip(52), [
      http(ip(52), 9100, {
        title: "Node Exporter",
        body: '<title>Node Exporter</title><a href="/metrics">Metrics</a>',
      }),
      http(ip(52), 8429, { body: "<h2>vmagent</h2><p>See docs</p>" }),
    ]),
  },
  { document: host(ip(53), [http(ip(53), 9000, { title: "SonarQube" })]) },
  // A honeypot: too many services, some truncated, some odd ones on common ports.
  {
    document: host(
      ip(54),
      [
        service(53, "HTTP", { banner: "HTTP/1.0 200 OK" }, "http"),
        service(22, "HTTP", { banner: "HTTP/1.0 200 OK" }, "http"),
        service(80, "RTSP", { banner: "RTSP/1.0 200 OK" }, "rtsp"),
        service(8888, "UNKNOWN", { truncated: true }, "banner"),
      ],
      {},
      { labels: ["truncated"] },
    ),
  },
  {
    document: host(ip(55), [http(ip(55), 80, {})], {
      country: "North Korea",
      country_code: "KP",
      city: "Pyongyang",
      province: "Pyongyang",
      asn: 131279,
      as_name: "STAR-KP",
      as_description: "Ryugyong-dong",
    }),
  },
  { document: host(ip(56), [http(ip(56), 443, {})], {}, { dns: { names: ["portal.agency.gov"] } }) },
  {
    document: host(ip(60), [http(ip(60), 80, { software: [software("Genivia", "gSOAP", "2.8")] })], {
      country: "Russia",
      country_code: "RU",
      city: "Moscow",
      province: "Moscow",
    }),
  },
  {
    document: host(ip(61), [http(ip(61), 80, {})], {
      city: "Detroit",
      province: "Michigan",
    }),
  },
  {
    document: host(ip(62), [
      http(ip(62), 8080, { software: [software("CrushFTP", "CrushFTP", "10.5.2")] }),
      service(22, "SSH", {
        software: [software("OpenBSD", "OpenSSH", "7.4")],
        banner: "SSH-2.0-OpenSSH_7.4",
      }),
    ]),
  },
  {
    document: host(
      ip(63),
      [service(3389, "RDP", { software: [software("Microsoft", "Windows", undefined, "o")] })],
      {},
      { operating_system: software("Microsoft", "Windows", undefined, "o") },
    ),
  },
  {
    document: host(ip(64), [
      http(ip(64), 80, {
        title: "Welcome to nginx!",
        server: "nginx",
        software: [software("F5", "nginx")],
        sha1: "75710e20f9c5609e3325dd9805d690a3647f1af0",
      }),
    ]),
  },
  {
    document: host(ip(65), [
      http(ip(65), 40056, {
        software: [software("HavocFramework", "Havoc")],
        extra: { threats: [threat("Havoc")] },
      }),
    ]),
  },
  {
    document: host(
      ip(66),
      [
        service(22, "SSH", {
          banner: "SSH-2.0-OpenSSH_8.9p1",
          ssh: {
            server_host_key: {
              fingerprint_sha256: "531a33202a58e4437317f8086d1847a6e770b2017b34b6676a033e9dc30a319c",
            },
          },
        }),
        service(2222, "SSH", {
          banner: "SSH-2.0-OpenSSH_9.6",
          ssh: {
            server_host_key: {
              fingerprint_sha256: "f95812cbb46f0a664a8f2200592369b105d17dfe8255054963aac4e2df53df51",
            },
          },
        }),
      ],
      { country: "Germany", country_code: "DE", city: "Falkenstein", province: "Saxony" },
    ),
  },
  {
    document: host("1.1.1.1", [service(53, "DNS")], {
      country: "Australia",
      country_code: "AU",
      city: "Sydney",
      province: "New South Wales",
      asn: 13335,
      as_name: "Cloudflare",
      as_description: "Cloudflare, Inc.",
      prefix: "1.1.1.0/24",
    }),
  },
  {
    document: host("8.8.8.8", [service(53, "DNS")], {
      asn: 15169,
      as_name: "GOOGLE",
      as_description: "Google LLC",
      prefix: "8.8.8.0/24",
    }),
  },
  // SD-WAN consoles.
  {
    document: host(ip3(10), [
      http(ip3(10), 80, {
        body: "<title>VeloCloud Network Orchestrator</title><div id=vco></div>",
        sha256: "ebaa382148c391357fa0976ccb8cf947a035e8be642190a4c9dff2c8a6ce1a0a",
      }),
    ]),
  },
  {
    document: host(ip3(11), [
      http(ip3(11), 80, {
        title: "Teloip Orchestrator API",
        body: "<title>Teloip Orchestrator API</title><p>The following operations are supported. For a formal definition, please review the Service XSD.</p>",
      }),
    ]),
  },
  { document: host(ip3(12), [http(ip3(12), 80, { title: "FatPipe WARP" })]) },
  {
    document: host(ip3(13), [
      http(ip3(13), 80, { title: "Viptela vManage" }),
      http(ip3(13), 443, {
        tls: {
          subject: { common_name: ["vmanage"] },
          issuer: { common_name: ["vmanage"] },
          fingerprint: "ad4c8962d687837c54a3430e869aadfc359db7fd07d9b0630ec2f355aa7b896a",
        },
      }),
    ]),
  },
  {
    document: host(ip3(14), [
      http(ip3(14), 80, {
        title: "Riverbed AWS Appliance",
        body: "<p>Riverbed SteelHead</p><p>This SteelHead WAN optimization appliance is centrally managed as part of the AWS automation features within Riverbed SteelConnect.</p>",
      }),
      http(ip3(14), 443, {
        tls: { fingerprint: "8199d53cf2832a133344559b09987b1d4830e643497f5f01d3178beb379ee7a5" },
      }),
    ]),
  },
  {
    document: host(ip3(15), [
      http(ip3(15), 80, { title: "SD-WAN Center" }),
      http(ip3(15), 443, {
        body: "<div><span>NetScaler</span> SD-WAN</div>",
        tls: { subject: { common_name: ["mycitrixdemo.net"] }, names: ["mycitrixdemo.net"] },
      }),
    ]),
  },
  {
    document: host(ip3(16), [
      http(ip3(16), 80, {
        body: "<footer>By using this product, you agree to be bound by the terms of Silver Peak Systems Inc. </footer>",
      }),
      http(ip3(16), 443, {
        tls: { subject: { common_name: ["Silverpeak GMS"] }, issuer: { common_name: ["silver-peak"] } },
      }),
    ]),
  },
  { document: host(ip3(17), [http(ip3(17), 80, { title: "AWS Management Console Login" })]) },
  {
    document: host(ip3(18), [
      http(ip3(18), 80, { body: "<footer>© 2017 Talari Networks</footer>" }),
      http(ip3(18), 443, {
        tls: {
          subject: { common_name: ["Talari"] },
          issuer_dn:
            "C=US, ST=California, L=San Jose, O=Talari Networks, Inc., OU=Engineering, CN=Talari, emailAddress=support@talari.com",
          spki: "f52b521dc30c3be76b9458f211eafd89fe63519678ff085f1c5c5cd7279a755d",
        },
      }),
    ]),
  },
  { document: host(ip3(19), [http(ip3(19), 80, { title: "Agile Controller" })]) },
  // AI and ML consoles.
  {
    document: host(ip3(20), [
      http(ip3(20), 8080, { title: "FATE Board", body: "x".repeat(2831) }),
      http(ip3(20), 8888, { server: "TornadoServer/6.3.3" }),
    ]),
  },
  {
    document: host(ip3(21), [
      http(ip3(21), 443, {
        title: "Megarac SP",
        server: "lighttpd",
        tls: { subject: { common_name: ["AMI"] } },
      }),
      service(623, "IPMI"),
    ]),
  },
  {
    document: host(ip3(22), [
      http(ip3(22), 80, {
        server: "Apache/2.4.41 (Unix)",
        body: '<html ng-app="flinkApp"><script src="mxnet.js"></script></html>',
      }),
    ]),
  },
  {
    document: host(ip3(23), [
      http(ip3(23), 80, { title: "Kubeflow Central Dashboard" }),
      http(ip3(23), 443, {
        sha256: "5d78eb6fa93b995f9a39f90b6fb32f016e80dbcda8eb71a17994678692585ee5",
        tls: { subject: { common_name: ["f5"] } },
      }),
    ]),
  },
  {
    document: host(
      ip3(24),
      [
        http(ip3(24), 80, { title: "Welcome to Example" }),
        http(ip3(24), 443, {
          title: "Welcome to Example",
          server: "Apache",
          tls: { subject: { common_name: ["welcome.example"] } },
        }),
      ],
      { country: "Japan", country_code: "JP", city: "Tokyo", province: "Tokyo" },
    ),
    websites: ["welcome.example"],
  },
  // Splashtop remote management, and an open directory offering its installers.
  {
    document: host(ip3(30), [
      tlsListener(
        6783,
        {
          subject: { common_name: ["SRS"] },
          issuer: { organization: ["Splashtop Inc."], common_name: ["Splashtop Inc. Self CA"] },
          names: ["SRS"],
        },
        {
          banner: "SRS:Ready\u0000",
          banner_hashes: ["sha256:5df2006c56654452aa889b55bb2b002c5326352c5d619cab3b05485a1eaef41e"],
          software: [software("Splashtop", "Splashtop Streamer")],
        },
      ),
    ]),
  },
  {
    document: host(ip3(31), [
      http(ip3(31), 443, {
        software: [software("Splashtop", "Splashtop Relay")],
        tls: { subject: { common_name: ["*.relay.splashtop.com"] }, names: ["*.relay.splashtop.com"] },
      }),
      service(22, "SSH", {
        ssh: {
          server_host_key: {
            fingerprint_sha256: "2a4c3084ab5554e81111fd48af142e2fafc96611f339cec09e8dc7dd930044fc",
          },
        },
      }),
    ]),
  },
  {
    document: host(ip3(32), [
      http(ip3(32), 80, {
        title: "Index of /",
        body: '<h1>Index of /</h1><a href="splashtop_streamer.exe">splashtop_streamer.exe</a>',
        extra: { threats: [threat("Suspicious Directory", "OPEN_DIRECTORY")] },
      }),
    ]),
  },
  {
    document: host(ip3(33), [http(ip3(33), 2375, { software: [software("Docker", "docker", "24.0.7")] })]),
  },
  {
    document: host(ip3(34), [
      tlsListener(8443, {
        subject: { common_name: ["051"] },
        issuer_dn: "C=Earth, ST=Cyberspace, L=Somewhere, O=Chrome, OU=SSL-RSA, CN=051",
        issuer: { country: ["Earth"], locality: ["Somewhere"], common_name: ["051"] },
      }),
      http(ip3(34), 443, {
        tls: {
          subject: { common_name: ["gw"] },
          issuer: { locality: ["Carterton"], common_name: ["gw-ca"] },
        },
      }),
      http(ip3(34), 80, { headers: { ETag: '"1a-58f89dce770c0"' } }),
    ]),
  },
  {
    document: host(ip3(35), [
      http(ip3(35), 80, {
        title: "Connection Manager",
        body: '<title>Connection Manager</title><script src="/assets/index-Bv1WZ4hk.js"></script>',
      }),
    ]),
  },
  {
    document: host(ip3(36), [
      service(3389, "RDP"),
      service(7070, "UNKNOWN", { software: [software("AnyDesk", "AnyDesk")] }, "banner"),
    ]),
  },
  { document: host(ip3(37), [http(ip3(37), 80, {})], { city: "Ann Arbor", province: "Michigan" }) },
];

export const PLANTED: readonly PlantedHost[] = HOSTS;

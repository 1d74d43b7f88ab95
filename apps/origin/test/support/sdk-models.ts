import { z } from "zod";

/**
 * Schemas equivalent to the official TypeScript SDK's inbound models
 * (censys/censys-sdk-typescript 0.12.5, `src/models/components`), written here from the SDK and
 * not from core, so an answer is checked against what the SDK would accept: required members
 * required, `z.nullable` where the SDK has it, integers where it says `.int()`, RFC 3339
 * date-times with an offset where it turns them into Dates, objects not strict (zod v3's
 * default). Open enums (`openEnums.inboundSchema`) accept any string.
 */

const int = z.number().int();
const dateTime = z.iso.datetime({ offset: true });
const openEnum = z.string();

/** `components.Collection`. */
export const sdkCollection = z.object({
  added_assets_24_hours: int,
  create_time: dateTime,
  created_by: z.string().optional(),
  description: z.string(),
  id: z.string(),
  name: z.string(),
  query: z.string(),
  removed_assets_24_hours: int,
  status: openEnum,
  status_reason: openEnum.nullable(),
  total_assets: int,
});

/** `components.ListCollectionsResponseV1`. */
export const sdkCollectionList = z.object({
  collections: z.array(sdkCollection).nullable(),
  next_page_token: z.string(),
});

/** `components.CollectionEventsResponse`. */
export const sdkCollectionEvents = z.object({
  events: z
    .array(
      z.object({
        asset_change: z
          .object({ change_type: openEnum, event_time: dateTime, reason: z.string() })
          .optional(),
        status_change: z
          .object({
            event_time: dateTime,
            new_status: openEnum,
            old_status: openEnum.optional(),
            reason: z.string().optional(),
          })
          .optional(),
      }),
    )
    .nullable(),
  next_page: z.string(),
});

/** `components.Tag`. */
export const sdkTag = z.object({
  created_at: dateTime,
  created_by: z.string(),
  description: z.string().optional(),
  id: z.string(),
  name: z.string(),
  privacy: openEnum,
  updated_at: dateTime,
});

/** `components.TagsList`. */
export const sdkTagsList = z.object({
  next_page_token: z.string().optional(),
  tags: z.array(sdkTag).nullable(),
  total_size: int,
});

/** `components.TagAssignment`. */
export const sdkTagAssignment = z.object({
  asset_id: z.string(),
  asset_type: openEnum,
  created_at: dateTime,
  created_by: z.string(),
  id: z.string(),
  platform_ref: z.string(),
  tag_id: z.string(),
});

/** `components.TagAssignmentsList`. */
export const sdkTagAssignmentsList = z.object({
  assignments: z.array(sdkTagAssignment).nullable(),
  next_page_token: z.string().optional(),
  total_size: int,
});

/** `components.TagOperation`. */
export const sdkTagOperation = z.object({
  created_at: dateTime,
  ended_at: dateTime.optional(),
  error_message: z.string().optional(),
  id: z.string(),
  processed_count: int,
  query: z.string().optional(),
  status: openEnum,
  status_message: z.string().optional(),
  successful_count: int,
  tag_id: z.string(),
  tag_name: z.string(),
  total_count: int,
  type: openEnum,
});

/** `components.TagOperationsList`. */
export const sdkTagOperationsList = z.object({
  next_page_token: z.string().optional(),
  operations: z.array(sdkTagOperation).nullable(),
  total_size: int,
});

/** `components.Comment`. */
export const sdkComment = z.object({
  asset_id: z.string(),
  asset_type: openEnum,
  body: z.string(),
  created_at: dateTime,
  created_by: z.string(),
  id: z.string(),
  platform_ref: z.string(),
  updated_at: dateTime,
});

/** `components.CommentsList`. */
export const sdkCommentsList = z.object({
  comments: z.array(sdkComment).nullable(),
  next_page_token: z.string().optional(),
  total_size: int,
});

const dnsIpRecord = z.object({
  domain: z.string(),
  first_seen: dateTime,
  last_seen: dateTime,
  record_type: openEnum,
});

/** `components.DnsIpResolutionBoundResponse` and `DnsIpResolutionRangeResponse`. */
export const sdkDnsIpResolutions = z.object({
  ip: z.string(),
  next_page_token: z.string(),
  records: z.array(dnsIpRecord).nullable(),
  total_records: int,
});

const nameRecord = {
  ip: z.string().optional(),
  mail_server: z.string().optional(),
  mname: z.string().optional(),
  name_server: z.string().optional(),
  priority: int.optional(),
  record_type: openEnum,
  rname: z.string().optional(),
  value: z.string().optional(),
};

/** `components.DnsNameResolutionBoundResponse` (`DnsResolutionRecord`). */
export const sdkDnsNameBounds = z.object({
  name: z.string(),
  next_page_token: z.string(),
  records: z.array(z.object({ ...nameRecord, first_seen: dateTime, last_seen: dateTime })).nullable(),
  total_records: int,
});

/** `components.DnsNameResolutionRangeResponse` (`DnsResolutionRangeRecord`). */
export const sdkDnsNameRanges = z.object({
  name: z.string(),
  next_page_token: z.string(),
  records: z.array(z.object({ ...nameRecord, first_observed: dateTime, last_observed: dateTime })).nullable(),
  total_records: int,
});

/** `components.ServicesOnHostResponse`: `ServiceOnHostRange.port` is a string. */
export const sdkServicesOnHost = z.object({
  next_page_token: z.string(),
  ranges: z
    .array(
      z.object({
        end_time: dateTime,
        ip: z.string(),
        port: z.string(),
        protocol: z.string(),
        start_time: dateTime,
        transport_protocol: z.string(),
      }),
    )
    .nullable(),
});

/** `components.HostObservationResponse`. */
export const sdkHostObservations = z.object({
  next_page_token: z.string().optional(),
  ranges: z
    .array(
      z.object({
        end_time: dateTime,
        ip: z.string(),
        port: int,
        protocols: z.array(z.string()).nullable(),
        start_time: dateTime,
        transport_protocol: z.string(),
      }),
    )
    .nullable(),
  total_results: int,
});

const fieldDiff = z.object({ new: z.string().optional(), old: z.string().optional() });

/** `components.WebpropertyTimeline` (`WebTimelineEventAsset`, `EndpointScan`). */
export const sdkWebpropertyTimeline = z.object({
  events: z
    .array(
      z.object({
        extensions: z.record(z.string(), z.unknown()),
        resource: z.object({
          endpoint_scanned: z
            .object({
              diff: z.record(z.string(), fieldDiff).optional(),
              scan: z
                .object({
                  endpoint_type: z.string().optional(),
                  hostname: z.string().optional(),
                  ip: z.string().optional(),
                  is_success: z.boolean().optional(),
                  path: z.string().optional(),
                  port: int.optional(),
                  scan_time: z.string().optional(),
                  transport_protocol: openEnum.optional(),
                  http: z
                    .object({
                      status_code: int.optional(),
                      headers: z
                        .record(z.string(), z.object({ headers: z.array(z.string()).nullable().optional() }))
                        .optional(),
                    })
                    .optional(),
                })
                .optional(),
            })
            .optional(),
          event_time: z.string().optional(),
        }),
      }),
    )
    .nullable(),
  scanned_to: dateTime,
});

/** `components.HostEnrichmentAsset`. */
export const sdkHostEnrichmentAsset = z.object({
  extensions: z.record(z.string(), z.unknown()),
  resource: z.object({
    autonomous_system: z
      .object({ asn: int.optional(), bgp_prefix: z.string().optional(), name: z.string().optional() })
      .optional(),
    ip: z.string().optional(),
    labels: z
      .array(z.object({ value: z.string().optional() }))
      .nullable()
      .optional(),
    location: z
      .object({
        coordinates: z
          .object({ latitude: z.number().optional(), longitude: z.number().optional() })
          .optional(),
        country: z.string().optional(),
      })
      .optional(),
    service_count: int.optional(),
    services: z
      .array(
        z.object({
          port: int.optional(),
          protocol: z.string().optional(),
          scan_time: z.string().optional(),
          labels: z
            .array(z.object({ value: z.string().optional() }))
            .nullable()
            .optional(),
          threats: z
            .array(z.object({ id: z.string().optional() }))
            .nullable()
            .optional(),
        }),
      )
      .nullable()
      .optional(),
  }),
});

/** `components.TrackedScan`. */
export const sdkTrackedScan = z.object({
  completed: z.boolean().optional(),
  create_time: z.string().optional(),
  target: z
    .object({
      host_port: z.object({ ip: z.string().optional(), port: int.optional() }).optional(),
      hostname_port: z.object({ hostname: z.string().optional(), port: int.optional() }).optional(),
      service_id: z
        .object({
          ip: z.string().optional(),
          port: int.optional(),
          protocol: z.string().optional(),
          transport_protocol: openEnum.optional(),
        })
        .optional(),
      web_origin: z.object({ hostname: z.string().optional(), port: int.optional() }).optional(),
    })
    .optional(),
  tasks: z
    .array(
      z.object({
        description: z.string().optional(),
        status: openEnum.optional(),
        update_time: z.string().optional(),
      }),
    )
    .nullable()
    .optional(),
  tracked_scan_id: z.string().optional(),
});

const censeyeTarget = z.object({
  certificate_id: z.string().optional(),
  host_id: z.string().optional(),
  webproperty_id: z.string().optional(),
});

/** `components.CenseyeJob`. */
export const sdkCenseyeJob = z.object({
  at_time: dateTime.optional(),
  create_time: dateTime.optional(),
  delete_time: dateTime.optional(),
  error: z.string().optional(),
  job_id: z.string(),
  result_count: int.optional(),
  state: openEnum,
  target: censeyeTarget,
  update_time: dateTime.optional(),
});

/** `components.CenseyeJobsListResponse`. */
export const sdkCenseyeJobs = z.object({
  jobs: z.array(sdkCenseyeJob).nullable(),
  next_page_token: z.string().optional(),
});

const fieldValuePair = z.object({ field: z.string(), value: z.string() });

/** `components.CenseyeResultsResponse`. */
export const sdkCenseyeResults = z.object({
  next_page_token: z.string().optional(),
  results: z
    .array(z.object({ count: z.number(), field_value_pairs: z.array(fieldValuePair).nullable() }))
    .nullable(),
});

/** `components.ValueCountsResponse`. */
export const sdkValueCounts = z.object({ and_count_results: z.array(z.number()).nullable() });

/** `components.ThreatsListResponse` of `components.ThreatListItem` (with `ThreatReference`). */
export const sdkThreatsList = z.object({
  threats: z
    .array(
      z.object({
        added_at: dateTime.optional(),
        count: int,
        description: z.string().optional(),
        host_count: int,
        id: z.string(),
        name: z.string().optional(),
        references: z
          .array(z.object({ link: z.string() }))
          .nullable()
          .optional(),
        web_count: int,
      }),
    )
    .nullable(),
});

/** `components.OrganizationMembersList`. */
export const sdkOrganizationMembers = z.object({
  members: z
    .array(
      z.object({
        created_at: dateTime.optional(),
        email: z.string(),
        first_login_time: dateTime.optional(),
        first_name: z.string(),
        last_name: z.string(),
        latest_login_time: dateTime.optional(),
        roles: z.array(z.string()).nullable(),
        uid: z.string(),
      }),
    )
    .nullable(),
  pagination: z.object({ next_page_token: z.string().optional(), page_size: int }),
});

/** `components.UserCredits`. */
export const sdkUserCredits = z.object({ balance: int, resets_at: dateTime.optional() });

/** `errors.AuthenticationError` (what `M.jsonErr(401, ...)` parses): `error` is `AuthenticationErrorDetail`. */
export const sdkAuthenticationError = z.object({
  error: z
    .object({
      code: int.optional(),
      message: z.string().optional(),
      reason: z.string().optional(),
      request: z.string().optional(),
      status: z.string().optional(),
    })
    .optional(),
});

/** `errors.ErrorModel`. */
export const sdkErrorModel = z.object({
  detail: z.string().optional(),
  errors: z
    .array(
      z.object({
        location: z.string().optional(),
        message: z.string().optional(),
        value: z.unknown().optional(),
      }),
    )
    .nullable()
    .optional(),
  instance: z.string().optional(),
  status: int.optional(),
  title: z.string().optional(),
  type: z.string().default("about:blank"),
});

// ---- global data and account management (assets, search, organization, credits) ----

export const sdkKeyUsage = z.object({ value: int.optional(), digital_signature: z.boolean().optional() });
export const sdkCertificate = z.object({
  fingerprint_sha256: z.string().optional(),
  names: z.array(z.string()).nullable().optional(),
  parsed: z
    .object({
      version: int.optional(),
      serial_number: z.string().optional(),
      validity_period: z
        .object({ length_seconds: int.optional(), not_before: z.string().optional() })
        .optional(),
      issuer: z.object({ common_name: z.array(z.string()).nullable().optional() }).optional(),
      extensions: z
        .object({
          key_usage: sdkKeyUsage.optional(),
          basic_constraints: z
            .object({ is_ca: z.boolean().optional(), max_path_len: int.optional() })
            .optional(),
          certificate_policies: z
            .array(z.object({ id: z.string().optional(), cps: z.array(z.string()).nullable().optional() }))
            .nullable()
            .optional(),
          signed_certificate_timestamps: z
            .array(
              z.object({
                version: int.optional(),
                log_id: z.string().optional(),
                timestamp: z.string().optional(),
                signature: z.object({ signature: z.string().optional() }).optional(),
              }),
            )
            .nullable()
            .optional(),
          subject_alt_name: z.object({ dns_names: z.array(z.string()).nullable().optional() }).optional(),
        })
        .optional(),
    })
    .optional(),
  validation: z
    .record(
      z.string(),
      z.object({ is_valid: z.boolean().optional(), parents: z.array(z.string()).nullable().optional() }),
    )
    .optional(),
  zlint: z.object({ version: int.optional(), errors_present: z.boolean().optional() }).optional(),
});
export const sdkHttp = z.object({
  status_code: int.optional(),
  body_size: int.optional(),
  headers: z.record(z.string(), z.object({ headers: z.array(z.string()).nullable().optional() })).optional(),
  html_tags: z.array(z.string()).nullable().optional(),
});
export const sdkEndpoint = z.object({
  port: int.optional(),
  path: z.string().optional(),
  http: sdkHttp.optional(),
});
export const sdkAttribute = z.object({
  cpe: z.string().optional(),
  source: z.string().optional(),
  type: z.array(z.string()).nullable().optional(),
});
export const sdkService = z.object({
  port: int.optional(),
  protocol: z.string().optional(),
  transport_protocol: z.string().optional(),
  scan_time: z.string().optional(),
  software: z.array(sdkAttribute).nullable().optional(),
  endpoints: z.array(sdkEndpoint).nullable().optional(),
  cert: sdkCertificate.optional(),
  tls: z
    .object({
      version_selected: z.string().optional(),
      presented_chain: z
        .array(z.object({ fingerprint_sha256: z.string().optional() }))
        .nullable()
        .optional(),
    })
    .optional(),
  // Protocol blocks the SDK types (telnet options are maps there, RDP's protocol an object).
  telnet: z
    .object({
      do: z.record(z.string(), z.string().nullable()).optional(),
      will: z.record(z.string(), z.string().nullable()).optional(),
    })
    .optional(),
  rdp: z.object({ selected_security_protocol: z.object({}).optional() }).optional(),
  ssh: z
    .object({
      endpoint_id: z.object({ raw: z.string().optional() }).optional(),
      hassh_fingerprint: z.string().optional(),
    })
    .optional(),
  mysql: z
    .object({
      protocol_version: int.optional(),
      capability_flags: z.record(z.string(), z.boolean()).optional(),
    })
    .optional(),
  redis: z.object({ auth_response: z.string().optional() }).optional(),
  postgres: z
    .object({
      protocol_error: z.record(z.string(), z.string()).optional(),
      supported_versions: z.string().optional(),
    })
    .optional(),
});
export const sdkHost = z.object({
  ip: z.string().optional(),
  service_count: int.optional(),
  autonomous_system: z.object({ asn: int.optional(), bgp_prefix: z.string().optional() }).optional(),
  location: z
    .object({
      coordinates: z.object({ latitude: z.number().optional(), longitude: z.number().optional() }).optional(),
    })
    .optional(),
  services: z.array(sdkService).nullable().optional(),
});
export const asset = <T extends z.ZodType>(resource: T) =>
  z.object({ resource, extensions: z.record(z.string(), z.unknown()) });
export const sdkWebproperty = z.object({
  hostname: z.string().optional(),
  port: int.optional(),
  endpoints: z.array(sdkEndpoint).nullable().optional(),
  cert: sdkCertificate.optional(),
  software: z.array(sdkAttribute).nullable().optional(),
});
export const sdkTimeline = z.object({
  events: z
    .array(
      asset(
        z.object({
          event_time: z.string().optional(),
          service_scanned: z
            .object({
              scan: sdkService.extend({ is_success: z.boolean().optional() }).optional(),
              diff: z
                .record(z.string(), z.object({ old: z.string().optional(), new: z.string().optional() }))
                .optional(),
            })
            .optional(),
          route_updated: z.object({ route: z.object({ asn: int.optional() }).optional() }).optional(),
          location_updated: z
            .object({ location: z.object({ country: z.string().optional() }).optional() })
            .optional(),
        }),
      ),
    )
    .nullable(),
  scanned_to: dateTime,
});
export const sdkOrganizationDetails = z.object({
  uid: z.string(),
  name: z.string(),
  created_at: dateTime.optional(),
  member_counts: z
    .object({ total: int, by_role: z.object({ admin: int.optional(), api_access: int.optional() }) })
    .optional(),
  preferences: z
    .object({
      ai_opt_in: z.boolean().optional(),
      ai_training: z.boolean().optional(),
      mfa_required: z.boolean().optional(),
    })
    .optional(),
});
export const sdkOrganizationCredits = z.object({
  uid: z.string(),
  balance: int,
  credit_expirations: z
    .array(
      z.object({
        balance: int,
        initial_balance: int,
        created_at: dateTime.optional(),
        expires_at: dateTime.optional(),
      }),
    )
    .nullable(),
  auto_replenish_config: z.object({
    enabled: z.boolean(),
    amount: int.optional(),
    threshold: int.optional(),
  }),
});
export const sdkCreditUsageReport = z.object({
  start_time: dateTime,
  end_time: dateTime,
  granularity: z.string().default("daily"),
  periods: z
    .array(
      z.object({
        credits_added: int,
        credits_consumed: int,
        credits_expired: int,
        start_date: dateTime,
        end_date: dateTime,
        transaction_count: int,
      }),
    )
    .nullable(),
  total_added: int,
  total_consumed: int,
  total_expired: int,
  transaction_count: int,
  credits_consumed_by_source: z.object({
    api: int,
    ui: int,
    auto_replenishment: int.optional(),
    other: int.optional(),
  }),
  credits_consumed_by_consumer: z.record(z.string(), int).optional(),
});
/** `components.SearchQueryResponse` with `SearchQueryHit`s (`HostAssetWithMatchedServices`, ...). */
export const sdkSearchQueryResponse = z.object({
  hits: z.array(
    z.object({
      host_v1: asset(sdkHost)
        .extend({
          matched_services: z
            .array(
              z.object({
                port: int.optional(),
                protocol: z.string().optional(),
                transport_protocol: z.string().optional(),
              }),
            )
            .optional(),
        })
        .optional(),
      certificate_v1: asset(sdkCertificate).optional(),
      webproperty_v1: asset(sdkWebproperty).optional(),
    }),
  ),
  next_page_token: z.string(),
  previous_page_token: z.string(),
  query_duration_millis: int,
  total_hits: z.number(),
});
/** `components.SearchAggregateResponse`. */
export const sdkSearchAggregateResponse = z.object({
  buckets: z.array(z.object({ key: z.string(), count: int })),
  total_count: int,
  other_count: int,
  is_more_than_total_hits: z.boolean(),
  query_duration_millis: int,
});
/** `components.SearchConvertQueryResponse`, a list of them. */
export const sdkSearchConvertResponse = z.array(
  z.object({
    original_query: z.string(),
    converted_query: z.string().optional(),
    targets: z.array(z.string()),
    errors: z.array(z.object({ message: z.string() })),
    comments: z.array(z.string()).optional(),
    alternative_queries: z.array(z.object({ query: z.string(), targets: z.array(z.string()) })).optional(),
  }),
);

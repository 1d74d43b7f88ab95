import type { Name as AsnName } from "@peculiar/asn1-x509";
import { DN_ATTRIBUTES } from "@scangate/search";

/**
 * Distinguished names as the certificate document spells them (ZCrypto's JSON): an object of
 * arrays keyed by attribute (`common_name`, `organization`, ...) and a one-line DN string in
 * encoded order with short names (`C=US, O=Example, CN=example.com`).
 */

const ATTRIBUTES: Record<string, { key: string; short: string }> = {
  "2.5.4.3": { key: "common_name", short: "CN" },
  "2.5.4.4": { key: "surname", short: "SN" },
  "2.5.4.5": { key: "serial_number", short: "serialNumber" },
  "2.5.4.6": { key: "country", short: "C" },
  "2.5.4.7": { key: "locality", short: "L" },
  "2.5.4.8": { key: "province", short: "ST" },
  "2.5.4.9": { key: "street_address", short: "street" },
  "2.5.4.10": { key: "organization", short: "O" },
  "2.5.4.11": { key: "organizational_unit", short: "OU" },
  "2.5.4.15": { key: "business_category", short: "businessCategory" },
  "2.5.4.17": { key: "postal_code", short: "postalCode" },
  "2.5.4.42": { key: "given_name", short: "GN" },
  "2.5.4.97": { key: "organization_id", short: "organizationIdentifier" },
  "1.2.840.113549.1.9.1": { key: "email_address", short: "emailAddress" },
  "0.9.2342.19200300.100.1.25": { key: "domain_component", short: "DC" },
  "1.3.6.1.4.1.311.60.2.1.1": { key: "jurisdiction_locality", short: "jurisdictionL" },
  "1.3.6.1.4.1.311.60.2.1.2": { key: "jurisdiction_province", short: "jurisdictionST" },
  "1.3.6.1.4.1.311.60.2.1.3": { key: "jurisdiction_country", short: "jurisdictionC" },
};

export interface DistinguishedName {
  /** The document object: attribute key to values. */
  fields: Record<string, string[]>;
  /** `C=US, O=Example, CN=example.com`. */
  text: string;
}

function escapeValue(value: string): string {
  return value.replace(/([,+"\\<>;])/g, "\\$1");
}

/** From the Name as decoded inside its certificate (a Name decoded on its own trips asn1-schema). */
export function parseDistinguishedName(name: AsnName): DistinguishedName {
  const collected: Record<string, string[]> = {};
  const parts: string[] = [];
  for (const rdn of name) {
    for (const attribute of rdn) {
      const known = ATTRIBUTES[attribute.type];
      const value = attribute.value.toString();
      parts.push(`${known?.short ?? attribute.type}=${escapeValue(value)}`);
      if (known) (collected[known.key] ??= []).push(value);
    }
  }
  const fields: Record<string, string[]> = {};
  // Every key a DN object carries (empty arrays dropped), in the document's order.
  for (const key of DN_ATTRIBUTES) {
    const values = collected[key];
    if (values) fields[key] = values;
  }
  return { fields, text: parts.join(", ") };
}

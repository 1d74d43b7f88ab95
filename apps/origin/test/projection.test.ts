import { describe, expect, it } from "vitest";
import { projectFields } from "../src/services/projection";

const doc = {
  ip: "1.2.3.4",
  location: { country: "Germany", coordinates: { latitude: 1, longitude: 2 } },
  services: [
    { port: 22, service_name: "SSH", software: [{ product: "openssh" }] },
    { port: 80, service_name: "HTTP" },
  ],
  "validation.nss.valid": true,
  validation: { nss: { valid: false } },
};

describe("fields projection", () => {
  it("flattens picked leaves to dotted keys", () => {
    expect(projectFields(doc, ["ip", "location.country"], true)).toEqual({
      ip: "1.2.3.4",
      "location.country": "Germany",
    });
  });

  it("flattens a picked object into its leaves", () => {
    expect(projectFields(doc, ["location"], true)).toEqual({
      "location.country": "Germany",
      "location.coordinates.latitude": 1,
      "location.coordinates.longitude": 2,
    });
  });

  it("collects a path through a list as a list when flattening", () => {
    expect(projectFields(doc, ["services.port", "services.software.product"], true)).toEqual({
      "services.port": [22, 80],
      "services.software.product": ["openssh"],
    });
  });

  it("keeps nesting and list shape when not flattening, merging sibling paths", () => {
    expect(
      projectFields(doc, ["ip", "services.port", "services.service_name", "location.country"], false),
    ).toEqual({
      ip: "1.2.3.4",
      services: [
        { port: 22, service_name: "SSH" },
        { port: 80, service_name: "HTTP" },
      ],
      location: { country: "Germany" },
    });
  });

  it("prefers a literal dotted key of the document (certificate validation.nss.valid)", () => {
    expect(projectFields(doc, ["validation.nss.valid"], true)).toEqual({ "validation.nss.valid": true });
    expect(projectFields(doc, ["validation.nss.valid"], false)).toEqual({ "validation.nss.valid": true });
  });

  it("leaves out paths the document does not have", () => {
    expect(projectFields(doc, ["nope", "location.city", "ip.deeper"], true)).toEqual({});
    expect(projectFields(doc, ["nope", "services.nothing"], false)).toEqual({});
  });
});

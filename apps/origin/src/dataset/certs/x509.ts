// @peculiar/x509 resolves its algorithm providers through tsyringe, which needs the Reflect
// metadata API before the library loads; import the library only through this module.
import "@abraham/reflection";

export * from "@peculiar/x509";

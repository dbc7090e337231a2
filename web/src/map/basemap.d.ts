/** The offline basemap built by web/basemap-plugin.ts. */
declare module "virtual:basemap" {
  const countries: import("geojson").FeatureCollection;
  export default countries;
}

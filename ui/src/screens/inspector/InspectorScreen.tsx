// stub
export function InspectorScreen() {
  return <div />;
}

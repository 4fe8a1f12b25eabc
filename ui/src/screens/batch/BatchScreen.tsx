// stub
export function BatchScreen() {
  return <div />;
}

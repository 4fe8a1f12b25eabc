// stub
export function FlowScreen() {
  return <div />;
}

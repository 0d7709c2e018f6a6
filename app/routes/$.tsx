/** Any path no route matches: the 404 page. JSON areas have their own splats (jsonNotFound). */
export const loader = () => {
  throw new Response("We could not find that page.", { status: 404 });
};
export const action = loader;

export default function NotFound() {
  return null;
}

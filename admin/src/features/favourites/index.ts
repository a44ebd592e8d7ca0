export { FavouritesCard } from "./favourites-card";
export { FavouritesLimitInput, favouritesLimitChange } from "./favourites-limit-input";

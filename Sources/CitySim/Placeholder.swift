// CitySim

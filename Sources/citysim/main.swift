print("citysim")
